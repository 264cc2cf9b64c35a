import type { ManualSyncAnswer, ManualSyncBody } from '@api/contracts/stock-push';
import { refusePush } from '@domain/channels/stock-push';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { findStore } from '@integrations/stores';
import type { PushTiming } from '@workflows/stock-push-protocol';
import { type WorkflowDeps, workflowError } from '@workflows/updates';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import { sendStockFigures } from './push-queue';
import { stockFigure, stockFigures } from './stock-figures';

/**
 * "Sync now" (/inventory/manual-sync-status): the store's linked SKUs (or one master code's) recomputed from the log
 * as it stands and pushed even where the channel was last told the same, each logged as a manual sync. The figures'
 * version is the log's head when they were read, so a stock change after it still supersedes them.
 */

export interface SyncDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps & { pushTiming?: PushTiming };
}

export async function syncStoreNow(
  deps: SyncDeps,
  actor: Actor,
  input: ManualSyncBody,
): Promise<ManualSyncAnswer> {
  const store = isUuid(input.store_id) ? await findStore(deps.db, actor.tenantId, input.store_id) : undefined;
  if (!store || store.status === 'disconnected') throw refusePush('STORE_NOT_FOUND');
  const head = await deps.store.headPosition();
  const stores = await stockFigures(deps, {
    tenantId: actor.tenantId,
    storeIds: [input.store_id],
    ...(input.master_code_id ? { masterCodeIds: [input.master_code_id] } : {}),
  });
  const figures = stores[0]?.figures ?? [];
  if (figures.length === 0) throw refusePush('NOTHING_TO_SYNC');
  const version = (head?.commit ?? 0n).toString();
  try {
    await sendStockFigures(
      deps.workflows,
      actor.tenantId,
      input.store_id,
      figures.map((figure) =>
        stockFigure(figure, { version, force: true, trigger: { origin: 'manual', reason: '' } }),
      ),
    );
  } catch (error) {
    throw workflowError(error, { refuse: () => undefined, missing: () => refusePush('STORE_NOT_FOUND') });
  }
  return { skus: figures.length };
}
