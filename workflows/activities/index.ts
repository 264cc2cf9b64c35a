import type { ChannelOf } from '@commands/channels/push-log';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Mailer } from '@infra/mail';
import { channelFor } from '@integrations/channel';
import type { ProjectionEngine } from '@projections/runtime/engine';
import type { Kysely } from 'kysely';
import type { PushTiming } from '../stock-push-protocol';
import { createBatchActivities } from './batches';
import { createGoodsIssueActivities } from './goods-issue';
import { createItemDownloadActivities } from './item-download';
import { createListingActivities, type ChannelOf as ListingChannelOf } from './listings';
import { createOrderHoldActivities } from './order-hold';
import { createOrderImportActivities } from './order-import';
import { createProjectionActivities } from './projections';
import { createPromotionActivities } from './promotions';
import { createPurchaseActivities } from './purchases';
import { createStockPushActivities } from './stock-push';
import { createTransferActivities } from './transfers';

/** What activities may use: the process's database, event store, projection engine and mailer. */
export interface ActivityDeps {
  engine: ProjectionEngine;
  db: Kysely<Database>;
  store: EventStore;
  mailer: Mailer;
  /** A store's channel adapter, for the stock push (default: the platform's adapter). */
  channels?: ChannelOf;
  /** Tests shorten the stock push workflows' timing. */
  pushTiming?: PushTiming;
  /** The channel adapter of a store (listing publish); by default the store's own (integrations/channel). */
  channelOf?: ListingChannelOf;
}

/** Every activity a Kedai worker serves, bound to the process's dependencies. */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createProjectionActivities(deps),
    ...createBatchActivities(deps),
    ...createGoodsIssueActivities(deps),
    ...createItemDownloadActivities({ ...deps, channelFor }),
    ...createOrderHoldActivities(deps),
    ...createOrderImportActivities(deps),
    ...createPurchaseActivities(deps),
    ...createPromotionActivities(deps),
    ...createStockPushActivities({
      ...deps,
      channels: deps.channels ?? ((store) => channelFor(deps.db, store)),
    }),
    ...createTransferActivities(deps),
    ...createListingActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
