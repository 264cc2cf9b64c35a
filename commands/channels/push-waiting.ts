import type { PushQueueAnswer } from '@api/contracts/stock-push';
import { refusePush } from '@domain/channels/stock-push';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { findStore } from '@integrations/stores';
import { WorkflowNotFoundError } from '@temporalio/client';
import { pushQueueQuery, stockPushWorkflowId } from '@workflows/stock-push-protocol';
import { type WorkflowDeps, workflowsUnavailable } from '@workflows/updates';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';

/**
 * What a store's stock push has still to tell its channel, asked of its workflow (`pushQueueQuery`): how many
 * figures wait for a call, and the SKUs the channel refused for now that wait out their backoff, with the try
 * they are at. The push log says what was answered; this is what is to come. A store whose workflow is not
 * running has nothing waiting.
 */

/** Long enough for a busy worker to answer, short enough for a screen that asks every few seconds. */
const QUERY_DEADLINE_MS = 10_000;

export async function pushQueueOf(
  deps: { db: Kysely<Database>; workflows: WorkflowDeps },
  actor: Actor,
  storeId: string,
): Promise<PushQueueAnswer> {
  const store = isUuid(storeId) ? await findStore(deps.db, actor.tenantId, storeId) : undefined;
  if (!store) throw refusePush('STORE_NOT_FOUND');
  const handle = deps.workflows.client.workflow.getHandle(stockPushWorkflowId(actor.tenantId, store.id));
  try {
    const queue = await deps.workflows.client.connection.withDeadline(Date.now() + QUERY_DEADLINE_MS, () =>
      handle.query(pushQueueQuery),
    );
    return {
      waiting: queue.waiting,
      retrying: queue.retrying.map((figure) => ({
        item_id: figure.itemId,
        model_id: figure.modelId,
        seller_sku: figure.sellerSku,
        quantity: figure.quantity,
        attempt: figure.attempt,
      })),
    };
  } catch (error) {
    const code = (error as { code?: number }).code;
    // 5 NOT_FOUND: no push has run for the store yet (or its history is gone).
    if (error instanceof WorkflowNotFoundError || code === 5) return { waiting: 0, retrying: [] };
    // 4 DEADLINE_EXCEEDED: no worker answered in time; 14 UNAVAILABLE: the server is gone.
    if (code === 4 || code === 14) throw workflowsUnavailable();
    throw error;
  }
}
