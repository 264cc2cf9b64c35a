/** Who runs a use case: the account and the person (their permission keys where the use case checks them). */
export interface Actor {
  tenantId: string;
  userId: string;
}
