import type { TargetPolicy } from '@commands/webhooks/targets';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Mailer } from '@infra/mail';
import { type ChannelOf, channelFor } from '@integrations/channel';
import type { ProjectionEngine } from '@projections/runtime/engine';
import type { Kysely } from 'kysely';
import type { PushTiming } from '../stock-push-protocol';
import { createBatchActivities } from './batches';
import { createGoodsIssueActivities } from './goods-issue';
import { createItemDownloadActivities } from './item-download';
import { createListingActivities } from './listings';
import { createOrderHoldActivities } from './order-hold';
import { createOrderImportActivities } from './order-import';
import { createProjectionActivities } from './projections';
import { createPromotionActivities } from './promotions';
import { createPurchaseActivities } from './purchases';
import { createStockPushActivities } from './stock-push';
import { createTransferActivities } from './transfers';
import { createWebhookActivities } from './webhooks';

/** What activities may use: the process's database, event store, projection engine and mailer. */
export interface ActivityDeps {
  engine: ProjectionEngine;
  db: Kysely<Database>;
  store: EventStore;
  mailer: Mailer;
  /**
   * A store's channel adapter, for every activity that talks to a channel (stock and price push, promotions,
   * listing publish, item download, order import); by default its platform's (`channelFor`).
   */
  channelOf?: ChannelOf;
  /** Tests shorten the stock push workflows' timing. */
  pushTiming?: PushTiming;
  /** Where webhook endpoints may point (config WEBHOOK_LOOPBACK); absent, nowhere on this machine. */
  webhookTargets?: TargetPolicy;
}

/** Every activity a Kedai worker serves, bound to the process's dependencies. */
export function createActivities(deps: ActivityDeps) {
  const channeled = { ...deps, channelOf: deps.channelOf ?? ((store) => channelFor(deps.db, store)) };
  return {
    ...createProjectionActivities(deps),
    ...createBatchActivities(deps),
    ...createGoodsIssueActivities(deps),
    ...createItemDownloadActivities(channeled),
    ...createOrderHoldActivities(deps),
    ...createOrderImportActivities(channeled),
    ...createPurchaseActivities(deps),
    ...createPromotionActivities(channeled),
    ...createStockPushActivities(channeled),
    ...createTransferActivities(deps),
    ...createListingActivities(channeled),
    ...createWebhookActivities({ db: deps.db, targets: deps.webhookTargets ?? { allowLoopback: false } }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
