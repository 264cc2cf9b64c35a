/** Who runs a use case: the account it acts in and the user acting. */
export interface Actor {
  tenantId: string;
  userId: string;
}
