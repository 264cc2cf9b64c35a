import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Mailer } from '@infra/mail';
import type { ProjectionEngine } from '@projections/runtime/engine';
import type { Kysely } from 'kysely';
import { createBatchActivities } from './batches';
import { createGoodsIssueActivities } from './goods-issue';
import { type ChannelOf, createListingActivities } from './listings';
import { createOrderHoldActivities } from './order-hold';
import { createOrderImportActivities } from './order-import';
import { createProjectionActivities } from './projections';
import { createPurchaseActivities } from './purchases';
import { createTransferActivities } from './transfers';

/** What activities may use: the process's database, event store, projection engine and mailer. */
export interface ActivityDeps {
  engine: ProjectionEngine;
  db: Kysely<Database>;
  store: EventStore;
  mailer: Mailer;
  /** The channel adapter of a store (listing publish); by default the store's own (integrations/channel). */
  channelOf?: ChannelOf;
}

/** Every activity a Kedai worker serves, bound to the process's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProjectionActivities(deps),
    ...createBatchActivities(deps),
    ...createGoodsIssueActivities(deps),
    ...createOrderHoldActivities(deps),
    ...createOrderImportActivities(deps),
    ...createPurchaseActivities(deps),
    ...createTransferActivities(deps),
    ...createListingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
