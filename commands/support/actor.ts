/** Who runs a use case: the account it acts in and the user acting. */
export interface Actor {
  tenantId: string;
  userId: string;
}

/** An actor whose documents may need approval: the owner may approve their own. */
export interface ApprovingActor extends Actor {
  owner: boolean;
}
