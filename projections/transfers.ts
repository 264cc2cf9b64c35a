import { TRANSFER_REQUESTS_VIEW, TRANSFERS_VIEW } from '@domain/shared/live-views';
import { TRANSFER_CATEGORY, TRANSFER_EVENT_TYPES, type TransferEvent } from '@domain/transfers/transfer';
import {
  TRANSFER_REQUEST_CATEGORY,
  TRANSFER_REQUEST_EVENT_TYPES,
  type TransferRequestEvent,
} from '@domain/transfers/transfer-request';
import type { Database, TransferRequestsTable, TransfersTable } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Selectable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { TRANSFER_REQUESTS_VIEW, TRANSFERS_VIEW };

/**
 * The lists of transfer requests and transfers (spec §3 "Transfer request and transfer"): one row per document with
 * its places, status, quantities and who did what when (from each event's metadata). The lines and the timeline of
 * one document are read from its stream; the rows here are what the lists filter, sort and page on. A batch loads
 * the rows it touches, folds its events into them in memory and writes each row once. Live views:
 * `transferRequests` and `transfers`, naming the documents by id.
 */

export type TransferRequestRow = Selectable<TransferRequestsTable>;
export type TransferRow = Selectable<TransfersTable>;

export const TRANSFERS_PROJECTION = 'transfers';

type RequestValues = Insertable<TransferRequestsTable>;
type TransferValues = Insertable<TransfersTable>;

const sum = (lines: readonly { quantity: number }[]) =>
  lines.reduce((total, line) => total + line.quantity, 0);
const plus = (value: string | number | bigint, more: number) => String(BigInt(value) + BigInt(more));
const by = (event: RecordedEvent) => event.metadata.userId ?? null;
const at = (event: RecordedEvent) => new Date(event.metadata.occurredAt);

/** A request's row after one of its events; undefined while its creation was not seen. */
export function requestRowAfter(
  row: RequestValues | undefined,
  event: RecordedEvent,
  tenantId: string,
  id: string,
): RequestValues | undefined {
  const typed = { type: event.type, data: event.data } as TransferRequestEvent;
  if (typed.type === 'TransferRequestCreated') {
    const data = typed.data;
    return {
      tenant_id: tenantId,
      id,
      reference: data.reference,
      from_warehouse_id: data.fromWarehouseId,
      to_warehouse_id: data.toWarehouseId,
      status: 'pending',
      remark: data.remark,
      reject_reason: null,
      line_count: data.lines.length,
      total_quantity: String(sum(data.lines)),
      transfer_id: null,
      created_by: by(event),
      created_at: at(event),
      approved_by: null,
      approved_at: null,
      rejected_by: null,
      rejected_at: null,
      cancelled_by: null,
      cancelled_at: null,
      updated_at: at(event),
    };
  }
  if (!row) return undefined;
  const next: RequestValues = { ...row, updated_at: at(event) };
  switch (typed.type) {
    case 'TransferRequestApproved':
      return {
        ...next,
        status: 'approved',
        transfer_id: typed.data.transferId,
        approved_by: by(event),
        approved_at: at(event),
      };
    case 'TransferRequestRejected':
      return {
        ...next,
        status: 'rejected',
        reject_reason: typed.data.reason,
        rejected_by: by(event),
        rejected_at: at(event),
      };
    case 'TransferRequestCancelled':
      return { ...next, status: 'cancelled', cancelled_by: by(event), cancelled_at: at(event) };
    default: {
      const unknown: never = typed;
      throw new Error(`unknown transfer request event ${(unknown as { type: string }).type}`);
    }
  }
}

/** A transfer's row after one of its events; undefined while its creation was not seen. */
export function transferRowAfter(
  row: TransferValues | undefined,
  event: RecordedEvent,
  tenantId: string,
  id: string,
): TransferValues | undefined {
  const typed = { type: event.type, data: event.data } as TransferEvent;
  if (typed.type === 'TransferCreated') {
    const data = typed.data;
    return {
      tenant_id: tenantId,
      id,
      reference: data.reference,
      request_id: data.requestId,
      from_warehouse_id: data.fromWarehouseId,
      to_warehouse_id: data.toWarehouseId,
      status: 'pending',
      confirmed: false,
      remark: data.remark,
      cancel_reason: null,
      line_count: data.lines.length,
      total_quantity: String(sum(data.lines)),
      shipped_quantity: '0',
      received_quantity: '0',
      returned_quantity: '0',
      created_by: by(event),
      created_at: at(event),
      confirmed_by: null,
      confirmed_at: null,
      shipped_by: null,
      shipped_at: null,
      received_by: null,
      received_at: null,
      cancelled_by: null,
      cancelled_at: null,
      completed_at: null,
      updated_at: at(event),
    };
  }
  if (!row) return undefined;
  const next: TransferValues = { ...row, updated_at: at(event) };
  switch (typed.type) {
    case 'TransferEdited':
      return {
        ...next,
        to_warehouse_id: typed.data.toWarehouseId,
        remark: typed.data.remark,
        line_count: typed.data.lines.length,
        total_quantity: String(sum(typed.data.lines)),
      };
    case 'TransferConfirmed':
      return { ...next, confirmed: true, confirmed_by: by(event), confirmed_at: at(event) };
    case 'TransferStepRecorded':
    case 'TransferStepCompensated':
    case 'TransferActionFailed':
      return next;
    case 'TransferShipped':
      return {
        ...next,
        status: 'in_transit',
        confirmed: true,
        shipped_quantity: String(sum(typed.data.lines)),
        shipped_by: by(event),
        shipped_at: at(event),
      };
    case 'TransferReceived':
      return {
        ...next,
        received_quantity: plus(row.received_quantity, sum(typed.data.lines)),
        received_by: by(event),
        received_at: at(event),
      };
    case 'TransferRestReturned':
      return { ...next, returned_quantity: plus(row.returned_quantity, sum(typed.data.lines)) };
    case 'TransferCompleted':
      return { ...next, status: 'completed', completed_at: at(event) };
    case 'TransferCancelled':
      return {
        ...next,
        status: 'cancelled',
        cancel_reason: typed.data.reason || null,
        returned_quantity: plus(row.returned_quantity, sum(typed.data.returnedLines)),
        cancelled_by: by(event),
        cancelled_at: at(event),
      };
    default: {
      const unknown: never = typed;
      throw new Error(`unknown transfer event ${(unknown as { type: string }).type}`);
    }
  }
}

const keyOf = (tenantId: string, id: string) => `${tenantId}\u0000${id}`;

/** The rows of `table` for these documents, keyed by tenant and id. */
async function loadRows<Row extends { tenant_id: string; id: string }>(
  trx: Transaction<Database>,
  table: 'transfer_requests' | 'transfers',
  keys: readonly { tenantId: string; id: string }[],
): Promise<Map<string, Row>> {
  const rows = new Map<string, Row>();
  const byTenant = new Map<string, string[]>();
  for (const { tenantId, id } of keys) byTenant.set(tenantId, [...(byTenant.get(tenantId) ?? []), id]);
  for (const [tenantId, ids] of byTenant) {
    const found = (await trx
      .selectFrom(table)
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', ids)
      .execute()) as unknown as Row[];
    for (const row of found) rows.set(keyOf(row.tenant_id, row.id), row);
  }
  return rows;
}

interface Touched<Values> {
  tenantId: string;
  id: string;
  row: Values | undefined;
}

/** Folds a category's events into its rows: the rows before (from the table), then each event in log order. */
async function fold<Values extends { tenant_id: string; id: string }>(
  trx: Transaction<Database>,
  table: 'transfer_requests' | 'transfers',
  events: readonly { event: RecordedEvent; tenantId: string; id: string }[],
  after: (row: Values | undefined, event: RecordedEvent, tenantId: string, id: string) => Values | undefined,
): Promise<Touched<Values>[]> {
  const touched = new Map<string, Touched<Values>>();
  for (const { tenantId, id } of events) touched.set(keyOf(tenantId, id), { tenantId, id, row: undefined });
  const existing = await loadRows<Values>(trx, table, [...touched.values()]);
  for (const [key, entry] of touched) entry.row = existing.get(key);
  for (const { event, tenantId, id } of events) {
    const entry = touched.get(keyOf(tenantId, id))!;
    entry.row = after(entry.row, event, tenantId, id);
  }
  return [...touched.values()];
}

const REQUEST_COLUMNS = [
  'reference',
  'from_warehouse_id',
  'to_warehouse_id',
  'status',
  'remark',
  'reject_reason',
  'line_count',
  'total_quantity',
  'transfer_id',
  'created_by',
  'created_at',
  'approved_by',
  'approved_at',
  'rejected_by',
  'rejected_at',
  'cancelled_by',
  'cancelled_at',
  'updated_at',
] as const satisfies readonly (keyof TransferRequestsTable)[];

const TRANSFER_COLUMNS = [
  'reference',
  'request_id',
  'from_warehouse_id',
  'to_warehouse_id',
  'status',
  'confirmed',
  'remark',
  'cancel_reason',
  'line_count',
  'total_quantity',
  'shipped_quantity',
  'received_quantity',
  'returned_quantity',
  'created_by',
  'created_at',
  'confirmed_by',
  'confirmed_at',
  'shipped_by',
  'shipped_at',
  'received_by',
  'received_at',
  'cancelled_by',
  'cancelled_at',
  'completed_at',
  'updated_at',
] as const satisfies readonly (keyof TransfersTable)[];

const excluded = (columns: readonly string[]) =>
  Object.fromEntries(columns.map((column) => [column, sql`excluded.${sql.ref(column)}`]));

function changes(view: string, touched: readonly Touched<unknown>[]): LiveChange[] {
  const byTenant = new Map<string, LiveChange>();
  for (const { tenantId, id, row } of touched) {
    if (!row) continue;
    const change = byTenant.get(tenantId) ?? { tenantId, view, ids: [] };
    change.ids.push(id);
    byTenant.set(tenantId, change);
  }
  return [...byTenant.values()];
}

export const transfersProjection = defineProjection({
  name: TRANSFERS_PROJECTION,
  eventTypes: [...TRANSFER_REQUEST_EVENT_TYPES, ...TRANSFER_EVENT_TYPES],
  tables: ['transfer_requests', 'transfers'],
  async apply(trx, events) {
    const requests: { event: RecordedEvent; tenantId: string; id: string }[] = [];
    const transfers: { event: RecordedEvent; tenantId: string; id: string }[] = [];
    for (const event of events) {
      const stream = parseStreamId(event.stream);
      if (!stream) continue;
      const entry = { event, tenantId: stream.tenantId, id: stream.entityKey };
      if (stream.category === TRANSFER_REQUEST_CATEGORY) requests.push(entry);
      else if (stream.category === TRANSFER_CATEGORY) transfers.push(entry);
    }
    const live: LiveChange[] = [];
    if (requests.length > 0) {
      const touched = await fold<RequestValues>(trx, 'transfer_requests', requests, requestRowAfter);
      const rows = touched.flatMap(({ row }) => (row ? [row] : []));
      if (rows.length > 0) {
        await trx
          .insertInto('transfer_requests')
          .values(rows)
          .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet(excluded(REQUEST_COLUMNS)))
          .execute();
      }
      live.push(...changes(TRANSFER_REQUESTS_VIEW, touched));
    }
    if (transfers.length > 0) {
      const touched = await fold<TransferValues>(trx, 'transfers', transfers, transferRowAfter);
      const rows = touched.flatMap(({ row }) => (row ? [row] : []));
      if (rows.length > 0) {
        await trx
          .insertInto('transfers')
          .values(rows)
          .onConflict((oc) => oc.columns(['tenant_id', 'id']).doUpdateSet(excluded(TRANSFER_COLUMNS)))
          .execute();
      }
      live.push(...changes(TRANSFERS_VIEW, touched));
    }
    return live;
  },
});
