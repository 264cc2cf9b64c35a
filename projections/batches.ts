import { BATCH_CATEGORY, BATCH_EVENT_TYPES, type BatchEvent } from '@domain/batches/batch';
import {
  checkTotals,
  SCAN_CHECK_CATEGORY,
  SCAN_CHECK_EVENT_TYPES,
  type ScanCheckEvent,
  type ScanCheckState,
  scanCheckDecider,
} from '@domain/scan/check';
import { BATCHES_VIEW, SCAN_CHECKS_VIEW } from '@domain/shared/live-views';
import type { BatchesTable, Database, ScanChecksTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Selectable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { BATCHES_VIEW, SCAN_CHECKS_VIEW };

/**
 * The read models of batches and scanning:
 * - `batches`: one row per batch (domain/batches/batch.ts) with its orders; what its orders are now (status, lines,
 *   tracking numbers) is the order board's read model (`orders`, `order_lines`), joined when a list is read;
 * - `scan_checks`: each order's scan check (domain/scan/check.ts): who checks it, how far, in which batch.
 *
 * Live views: `batches` (batch ids: made or changed, or a check of one of its orders moved — its progress),
 * `scanChecks` (order ids whose check moved).
 */

export const BATCHES_PROJECTION = 'batches';

/** Order statuses that count as scanned in a batch's progress (read from the order board's `orders`). */
export const SCANNED_STATUSES = [
  'scanned',
  'processed',
  'shipped',
  'delivered',
  'returned',
  'refunded',
] as const;

export type BatchRow = Selectable<BatchesTable>;
export type ScanCheckRow = Selectable<ScanChecksTable>;

type BatchValues = Insertable<BatchesTable>;
type CheckValues = Insertable<ScanChecksTable>;

const at = (event: RecordedEvent) => new Date(event.metadata.occurredAt);
const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/** A jsonb value as it comes back from Postgres (parsed), or as this batch wrote it (text). */
const jsonOf = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;

// ---- rows after an event ----

export function batchRowAfter(
  row: BatchValues | undefined,
  event: RecordedEvent,
  tenantId: string,
  id: string,
): BatchValues | undefined {
  const typed = { type: event.type, data: event.data } as BatchEvent;
  if (typed.type === 'BatchCreated') {
    const d = typed.data;
    return {
      tenant_id: tenantId,
      id,
      number: d.number,
      label: d.label,
      name: d.name,
      type: d.batchType,
      status: 'open',
      picker_id: d.pickerId,
      date: d.date,
      max_orders: d.maxOrders,
      split: d.split,
      group_value: d.group,
      source: d.source,
      config_id: d.configId,
      order_ids: d.orderIds,
      total_orders: d.orderIds.length,
      created_by: event.metadata.userId ?? null,
      created_at: at(event),
      closed_at: null,
      updated_at: at(event),
    };
  }
  if (!row) return undefined;
  const next: BatchValues = { ...row, updated_at: at(event) };
  switch (typed.type) {
    case 'BatchOrdersAdded': {
      const orderIds = [...(row.order_ids as string[]), ...typed.data.orderIds];
      return { ...next, order_ids: orderIds, total_orders: orderIds.length };
    }
    case 'BatchOrdersRemoved': {
      const removed = new Set(typed.data.orderIds);
      const orderIds = (row.order_ids as string[]).filter((orderId) => !removed.has(orderId));
      return { ...next, order_ids: orderIds, total_orders: orderIds.length };
    }
    case 'BatchPickerAssigned':
      return { ...next, picker_id: typed.data.pickerId };
    case 'BatchClosed':
      return { ...next, status: 'closed', closed_at: at(event) };
    default: {
      const unknown: never = typed;
      throw new Error(`unknown batch event ${(unknown as { type: string }).type}`);
    }
  }
}

export function checkRowAfter(
  row: CheckValues | undefined,
  event: RecordedEvent,
  tenantId: string,
  id: string,
): CheckValues | undefined {
  const before = row ? jsonOf<ScanCheckState>(row.state) : scanCheckDecider.initial;
  const state = scanCheckDecider.evolve(before, { type: event.type, data: event.data } as ScanCheckEvent);
  if (state.status === 'none') return row;
  const totals = checkTotals(state.lines);
  return {
    tenant_id: tenantId,
    order_id: id,
    round: state.round,
    status: state.status,
    picker_id: state.pickerId,
    batch_id: state.batchId,
    tracking_number: state.trackingNumber,
    scanned_units: totals.scanned,
    required_units: totals.required,
    opened_at: new Date(state.openedAt),
    completed_at: state.completedAt ? new Date(state.completedAt) : null,
    state: JSON.stringify(state),
    updated_at: at(event),
  };
}

// ---- folding a batch of events ----

type Entry = { event: RecordedEvent; tenantId: string; id: string };

async function existingRows<Row>(
  trx: Transaction<Database>,
  table: 'batches' | 'scan_checks',
  key: 'id' | 'order_id',
  entries: readonly Entry[],
): Promise<Map<string, Row>> {
  const byTenant = new Map<string, Set<string>>();
  for (const { tenantId, id } of entries)
    byTenant.set(tenantId, (byTenant.get(tenantId) ?? new Set()).add(id));
  const rows = new Map<string, Row>();
  for (const [tenantId, ids] of byTenant) {
    const found = await trx
      .selectFrom(table)
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where(key, 'in', [...ids])
      .execute();
    for (const row of found) {
      const record = row as unknown as Record<string, string>;
      rows.set(keyOf(tenantId, record[key]!), row as unknown as Row);
    }
  }
  return rows;
}

const excluded = (columns: readonly string[]) =>
  Object.fromEntries(columns.map((column) => [column, sql`excluded.${sql.ref(column)}`]));

const BATCH_COLUMNS = [
  'number',
  'label',
  'name',
  'type',
  'status',
  'picker_id',
  'date',
  'max_orders',
  'split',
  'group_value',
  'source',
  'config_id',
  'order_ids',
  'total_orders',
  'created_by',
  'created_at',
  'closed_at',
  'updated_at',
] as const satisfies readonly (keyof BatchesTable)[];

const CHECK_COLUMNS = [
  'round',
  'status',
  'picker_id',
  'batch_id',
  'tracking_number',
  'scanned_units',
  'required_units',
  'opened_at',
  'completed_at',
  'state',
  'updated_at',
] as const satisfies readonly (keyof ScanChecksTable)[];

class Changes {
  private readonly byKey = new Map<string, LiveChange>();
  add(tenantId: string, view: string, id: string) {
    const key = `${tenantId}\u0000${view}`;
    const change = this.byKey.get(key) ?? { tenantId, view, ids: [] };
    if (!change.ids.includes(id)) change.ids.push(id);
    this.byKey.set(key, change);
  }
  list() {
    return [...this.byKey.values()];
  }
}

export const batchesProjection = defineProjection({
  name: BATCHES_PROJECTION,
  eventTypes: [...BATCH_EVENT_TYPES, ...SCAN_CHECK_EVENT_TYPES],
  tables: ['batches', 'scan_checks'],
  async apply(trx, events) {
    const batches: Entry[] = [];
    const checks: Entry[] = [];
    for (const event of events) {
      const stream = parseStreamId(event.stream);
      if (!stream) continue;
      const entry = { event, tenantId: stream.tenantId, id: stream.entityKey };
      if (stream.category === BATCH_CATEGORY) batches.push(entry);
      else if (stream.category === SCAN_CHECK_CATEGORY) checks.push(entry);
    }
    const changes = new Changes();

    if (batches.length > 0) {
      const rows = await existingRows<BatchValues>(trx, 'batches', 'id', batches);
      const touched = new Map<string, BatchValues>();
      for (const { event, tenantId, id } of batches) {
        const key = keyOf(tenantId, id);
        const after = batchRowAfter(touched.get(key) ?? rows.get(key), event, tenantId, id);
        if (after) touched.set(key, after);
      }
      const values = [...touched.values()];
      if (values.length > 0) {
        await trx
          .insertInto('batches')
          .values(values)
          .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet(excluded(BATCH_COLUMNS)))
          .execute();
      }
      for (const row of values) changes.add(row.tenant_id, BATCHES_VIEW, row.id);
    }

    if (checks.length > 0) {
      const rows = await existingRows<CheckValues>(trx, 'scan_checks', 'order_id', checks);
      const touched = new Map<string, CheckValues>();
      for (const { event, tenantId, id } of checks) {
        const key = keyOf(tenantId, id);
        const after = checkRowAfter(touched.get(key) ?? rows.get(key), event, tenantId, id);
        if (!after) continue;
        touched.set(key, after);
        changes.add(tenantId, SCAN_CHECKS_VIEW, id);
        if (after.batch_id) changes.add(tenantId, BATCHES_VIEW, after.batch_id);
      }
      const values = [...touched.values()];
      if (values.length > 0) {
        await trx
          .insertInto('scan_checks')
          .values(values)
          .onConflict((oc) => oc.columns(['tenant_id', 'order_id']).doUpdateSet(excluded(CHECK_COLUMNS)))
          .execute();
      }
    }
    return changes.list();
  },
});
