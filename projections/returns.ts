import {
  emptyReturn,
  evolve,
  RETURN_EVENT_TYPES,
  type ReturnEvent,
  type ReturnRecord,
  type ReturnState,
} from '@domain/returns/return';
import { RETURNS_VIEW } from '@domain/shared/live-views';
import type { OrderReturnsTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, sql } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

/** What a return records of the refund, as its row and its detail answer show it. */
export const refundFields = (record: ReturnRecord) => ({
  action: record.action,
  reason: record.reason,
  refund_to_buyer: record.refundToBuyer,
  include_shipping: record.includeShipping,
  refund_reason: record.refundReason,
  reversal_item_price: record.reversalItemPrice,
  currency: record.currency,
});

export { RETURNS_VIEW };

/**
 * The returns' list (`order_returns`), from the returns' events (domain/returns/return.ts): one row per return
 * with what the list shows and sorts on — the order, the action, the refund, the quantities returned and put back
 * — and the folded return in `state` (the decider's own `evolve`, so a rebuild folds the same rows). Who created
 * it and when come from the recording event's metadata. Live changes name the returns in the view `orderReturns`.
 */

export const RETURNS_PROJECTION = 'order_returns';

type Row = Insertable<OrderReturnsTable>;

interface Stored {
  state: ReturnState;
  createdBy: string | null;
  createdAt: string;
}

export const returnsProjection = defineProjection({
  name: RETURNS_PROJECTION,
  eventTypes: RETURN_EVENT_TYPES,
  tables: ['order_returns'],
  async apply(trx, events) {
    const key = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;
    const returns = new Map<string, { tenantId: string; id: string; events: RecordedEvent[] }>();
    for (const event of events) {
      const id = parseStreamId(event.stream)?.entityKey;
      if (!id) continue;
      const entry = returns.get(key(event.metadata.tenantId, id)) ?? {
        tenantId: event.metadata.tenantId,
        id,
        events: [],
      };
      entry.events.push(event);
      returns.set(key(event.metadata.tenantId, id), entry);
    }
    if (returns.size === 0) return [];
    const stored = await trx
      .selectFrom('order_returns')
      .select(['tenant_id', 'id', 'state', 'created_by', 'created_at'])
      .where(
        'id',
        'in',
        [...returns.values()].map((entry) => entry.id),
      )
      .execute();
    const known = new Map<string, Stored>(
      stored.map((row) => [
        key(row.tenant_id, row.id),
        {
          state: row.state as unknown as ReturnState,
          createdBy: row.created_by,
          createdAt: row.created_at.toISOString(),
        },
      ]),
    );

    const rows: Row[] = [];
    const claims: { tenantId: string; returnId: string; images: string[] }[] = [];
    const changes = new Map<string, LiveChange>();
    for (const [entryKey, entry] of returns) {
      const before = known.get(entryKey);
      let state = before?.state ?? emptyReturn;
      let createdBy = before?.createdBy ?? null;
      let createdAt = before?.createdAt ?? '';
      for (const event of entry.events) {
        state = evolve(state, { type: event.type, data: event.data } as ReturnEvent);
        if (event.type === 'OrderReturnRecorded') {
          createdBy = event.metadata.userId ?? null;
          createdAt = event.metadata.occurredAt;
        }
      }
      const record = state.record;
      if (!record) continue;
      if (record.images.length > 0 && !before?.state.record)
        claims.push({ tenantId: entry.tenantId, returnId: entry.id, images: record.images });
      const last = entry.events[entry.events.length - 1]!;
      rows.push({
        tenant_id: entry.tenantId,
        id: entry.id,
        order_id: record.orderId,
        order_number: record.orderNumber,
        tracking_number: record.trackingNumber,
        store_id: record.storeId,
        platform: record.platform,
        warehouse_id: record.warehouseId,
        ...refundFields(record),
        line_count: record.lines.length,
        total_quantity: record.lines.reduce((sum, line) => sum + line.quantity, 0),
        restocked_quantity: state.restocked.reduce((sum, line) => sum + line.quantity, 0),
        image_count: record.images.length,
        completed: state.completed,
        created_by: createdBy,
        created_at: createdAt,
        updated_at: last.metadata.occurredAt,
        last_revision: last.revision.toString(),
        state: JSON.stringify(state),
      });
      const change = changes.get(entry.tenantId) ?? { tenantId: entry.tenantId, view: RETURNS_VIEW, ids: [] };
      change.ids.push(entry.id);
      changes.set(entry.tenantId, change);
    }
    // The images a return records become its own (they were uploads of no return until now), in the same
    // transaction as its row: an image attached to one return cannot be attached to another.
    for (const { tenantId, returnId, images } of claims) {
      await trx
        .updateTable('uploaded_images')
        .set({ return_id: returnId })
        .where('tenant_id', '=', tenantId)
        .where('purpose', '=', 'return')
        .where('id', 'in', images)
        .where('return_id', 'is', null)
        .execute();
    }
    if (rows.length > 0) {
      await trx
        .insertInto('order_returns')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'id']).doUpdateSet({
            restocked_quantity: sql`excluded.restocked_quantity`,
            completed: sql`excluded.completed`,
            updated_at: sql`excluded.updated_at`,
            last_revision: sql`excluded.last_revision`,
            state: sql`excluded.state`,
          }),
        )
        .execute();
    }
    return [...changes.values()];
  },
});
