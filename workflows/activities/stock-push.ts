import { recordPush } from '@commands/channels/push-log';
import { sendStockFigures } from '@commands/channels/push-queue';
import { stockFigure, stockFigures } from '@commands/channels/stock-figures';
import type { PushedLine } from '@domain/channels/push-log';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { ChannelOf } from '@integrations/channel';
import { findStore } from '@integrations/stores';
import { Context } from '@temporalio/activity';
import type { Kysely } from 'kysely';
import {
  type PushBatchInput,
  type PushBatchResult,
  type PushLineResult,
  type PushTiming,
  type StockFigure,
  skuKey,
} from '../stock-push-protocol';

/**
 * The stock push's one activity (workflows/stock-push.workflow.ts): tell the channel a batch of figures and record
 * the call in the push log — each SKU's figure, why, which try, and what the channel answered. A refusal by the
 * channel is an answer, not a failure: it is logged and handed back for the workflow to retry or give up. The log
 * event's id is the call's, so a retried activity (the worker killed after the call) finds the call already logged
 * and answers as it did, rather than telling the channel twice.
 *
 * The reconciliation reads back what each store shows (`getStock`) and hands the store's workflow the right figure
 * of every SKU that drifted (sold on the marketplace's own page while Kedai was down, edited by hand in Seller
 * Centre…), logged as a reconciliation with what the channel showed.
 */

export interface StockPushDeps {
  db: Kysely<Database>;
  store: EventStore;
  /** The channel adapter of a store (integrations/channel: channelFor). */
  channelOf: ChannelOf;
  /** Tests shorten the push workflows' timing. */
  pushTiming?: PushTiming;
}

/** Item ids per getStock call (Shopee's get_model_list reads one item at a time; the port takes 50). */
const READ_BACK_BATCH = 50;

const retryableOf = (line: PushedLine) => line.outcome === 'retrying';

/** How often a push beats while it waits on the channel (the workflow gives up on a silent one after 10 s). */
const HEARTBEAT_EVERY_MS = 2_000;

export function createStockPushActivities(deps: StockPushDeps) {
  async function pushBatch(input: PushBatchInput): Promise<PushBatchResult> {
    const store = await findStore(deps.db, input.tenantId, input.storeId);
    if (!store || store.status === 'disconnected') return { storeGone: true };
    const logged = await recordPush(deps, {
      store,
      callId: input.callId,
      field: 'stock',
      call: async () => {
        const channel = await deps.channelOf(store);
        return channel.updateStock(
          input.figures.map((figure) => ({
            itemId: figure.itemId,
            ...(figure.modelId ? { modelId: figure.modelId } : {}),
            quantity: figure.quantity,
          })),
        );
      },
      lines: input.figures.map((figure) => ({
        itemId: figure.itemId,
        modelId: figure.modelId,
        sellerSku: figure.sellerSku,
        masterCodeId: figure.masterCodeId,
        quantity: figure.quantity,
        trigger: figure.trigger,
        attempt: figure.attempt,
      })),
      maxAttempts: input.maxAttempts,
    });
    return {
      lines: logged.lines.map(
        (line, index): PushLineResult => ({
          itemId: line.itemId,
          modelId: line.modelId,
          ok: line.outcome === 'ok',
          retryable: retryableOf(line),
          ...(logged.retryAfterMs?.[index] !== undefined ? { retryAfterMs: logged.retryAfterMs[index] } : {}),
        }),
      ),
    };
  }

  return {
    async pushStockBatch(input: PushBatchInput): Promise<PushBatchResult> {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        return await pushBatch(input);
      } finally {
        clearInterval(beat);
      }
    },

    /** Every connected store of every account, for the reconciliation schedule. */
    async storesToReconcile(): Promise<{ tenantId: string; storeId: string }[]> {
      const rows = await deps.db
        .selectFrom('stores')
        .select(['tenant_id', 'id'])
        .where('status', '<>', 'disconnected')
        .orderBy('tenant_id')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({ tenantId: row.tenant_id, storeId: row.id }));
    },

    /** Reads the store's stock back and queues the right figure of every SKU that drifted; how many drifted. */
    async reconcileStore(input: { tenantId: string; storeId: string }): Promise<{ drifted: number }> {
      const store = await findStore(deps.db, input.tenantId, input.storeId);
      if (!store || store.status === 'disconnected') return { drifted: 0 };
      // Read before the figures: a stock change after this point carries a newer version and wins.
      const head = await deps.store.headPosition();
      const [computed] = await stockFigures(deps, { tenantId: input.tenantId, storeIds: [input.storeId] });
      if (!computed || computed.figures.length === 0) return { drifted: 0 };
      const channel = await deps.channelOf(store);
      const itemIds = [...new Set(computed.figures.map((figure) => figure.itemId))];
      const shown = new Map<string, number>();
      for (let start = 0; start < itemIds.length; start += READ_BACK_BATCH) {
        Context.current().heartbeat(start);
        for (const stock of await channel.getStock(itemIds.slice(start, start + READ_BACK_BATCH))) {
          shown.set(skuKey({ itemId: stock.itemId, modelId: stock.modelId ?? '' }), stock.quantity);
        }
      }
      const version = (head?.commit ?? 0n).toString();
      const drifted: StockFigure[] = [];
      for (const figure of computed.figures) {
        const showing = shown.get(skuKey(figure));
        if (showing === undefined || showing === figure.quantity) continue;
        drifted.push(
          stockFigure(figure, {
            version,
            force: true,
            trigger: { origin: 'reconcile', reason: `The channel showed ${showing}` },
          }),
        );
      }
      const context = Context.current();
      await sendStockFigures(
        {
          client: context.client,
          taskQueue: context.info.taskQueue,
          ...(deps.pushTiming ? { pushTiming: deps.pushTiming } : {}),
        },
        input.tenantId,
        input.storeId,
        drifted,
      );
      return { drifted: drifted.length };
    },
  };
}
