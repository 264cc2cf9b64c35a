/** Who runs a command: the seller account and the signed-in user acting for it. */
export interface Actor {
  tenantId: string;
  userId: string;
}
