import { randomUUID } from 'node:crypto';
import { refuseListing } from '@domain/listings/rules';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { WorkflowDeps } from '@workflows/updates';
import type { Kysely } from 'kysely';

/** What the listing use cases share. */
export interface ListingDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

/** A listing's id (the spec's groupId) from a path: the console makes a new listing's id itself, a uuid. */
export function listingIdOf(groupId: string): string {
  if (!isUuid(groupId)) throw refuseListing('LISTING_NOT_FOUND');
  return groupId.toLowerCase();
}

/** The context of a command a person runs: who, under a fresh command id, now. */
export const personContext = (actor: { tenantId: string; userId: string }, purpose: string) => ({
  tenantId: actor.tenantId,
  userId: actor.userId,
  commandId: `${actor.tenantId}:listing-${purpose}:${randomUUID()}`,
  occurredAt: new Date().toISOString(),
});
