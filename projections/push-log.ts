import type { ChannelUpdatePushed } from '@domain/channels/push-log';
import { LIVE_VIEWS } from '@domain/shared/live-views';
import type { ChannelPushLogTable } from '@infra/db';
import type { Insertable } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

/**
 * The push log's read model (domain/channels/push-log.ts): one row per SKU per call a channel was told stock or a
 * price in, with what, why, which try and the answer — what `/logistic/sync-qty-log` lists and filters. Live
 * changes name the stores in the view `pushLog`.
 */

export const PUSH_LOG_PROJECTION = 'push_log';

export const pushLogProjection = defineProjection({
  name: PUSH_LOG_PROJECTION,
  eventTypes: ['ChannelUpdatePushed'],
  tables: ['channel_push_log'],
  async apply(trx, events) {
    const rows: Insertable<ChannelPushLogTable>[] = [];
    const changes = new Map<string, LiveChange>();
    for (const event of events) {
      const data = event.data as ChannelUpdatePushed;
      const tenantId = event.metadata.tenantId;
      data.lines.forEach((line, index) => {
        rows.push({
          tenant_id: tenantId,
          id: `${event.id}:${index}`,
          store_id: data.storeId,
          platform: data.platform,
          field: data.field,
          item_id: line.itemId,
          model_id: line.modelId,
          seller_sku: line.sellerSku,
          master_code_id: line.masterCodeId,
          quantity: line.quantity ?? null,
          price: line.price ?? null,
          origin: line.trigger.origin,
          trigger_event_id: line.trigger.eventId ?? null,
          trigger_type: line.trigger.eventType ?? null,
          reason: line.trigger.reason,
          attempt: line.attempt,
          outcome: line.outcome,
          answer: line.answer,
          pushed_at: data.pushedAt,
        });
      });
      const change = changes.get(tenantId) ?? { tenantId, view: LIVE_VIEWS.pushLog, ids: [] };
      if (!change.ids.includes(data.storeId)) change.ids.push(data.storeId);
      changes.set(tenantId, change);
    }
    // Large calls make many rows: inserted in slices well under Postgres's parameter limit.
    for (let start = 0; start < rows.length; start += 1000) {
      await trx
        .insertInto('channel_push_log')
        .values(rows.slice(start, start + 1000))
        .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
        .execute();
    }
    return [...changes.values()];
  },
});
