/** Who runs a use case: the account it acts in and the user acting (absent for the system's own reactors). */
export interface Actor {
  tenantId: string;
  userId?: string;
}
