/** Who runs a command: the account it acts in and the person acting (the owner may approve their own documents). */
export interface Actor {
  tenantId: string;
  userId: string;
  owner: boolean;
}
