import {
  available,
  initialState,
  STOCK_EVENT_TYPES,
  type StockEvent,
  type StockEventType,
  type StockState,
} from '@domain/inventory/stock';
import { STOCK_VIEW } from '@domain/shared/live-views';
import type { Database, StockLevelsTable, StockMovementsTable } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { STOCK_VIEW };

/**
 * The stock read models, from the stock events (domain/inventory/stock.ts):
 *
 * - `stock_levels`: one row per master code and warehouse: every figure (on hand, reserved, in process, the three
 *   holds, incoming), available (what the channels may sell, computed by Postgres) and `negative`, the oversell
 *   flag; the stock list reads it.
 * - `stock_movements`: the ledger, one row per event, with the movement report's figures (previous stock, change,
 *   in, out, new stock) and who, when and why. Each row carries the figures after it, so the stock at any past
 *   instant is the last row at or before it: one lookup in (tenant, master code, warehouse, occurred_at), however
 *   many movements the stock has.
 *
 * Every event states its figures after it, so a batch needs no row it did not write. Live changes name the stock
 * as `<masterCodeId>@<warehouseId>` in the view `stock`.
 */

export type StockLevelRow = Selectable<StockLevelsTable>;
export type StockMovementRow = Selectable<StockMovementsTable>;
export type NewStockMovementRow = Insertable<StockMovementsTable>;

export const STOCK_PROJECTION = 'stock';

/** How the live hub and the stock list name one stock: `<masterCodeId>@<warehouseId>`. */
export const stockKey = (masterCodeId: string, warehouseId: string) => `${masterCodeId}@${warehouseId}`;

// ---- handlers: what each event type adds to the figures every stock event carries ----

type DataOf<Type extends StockEventType> = Extract<StockEvent, { type: Type }>['data'];
interface Details {
  mode: string | null;
  counterpartWarehouseId: string | null;
}
const plain = (): Details => ({ mode: null, counterpartWarehouseId: null });

const handlers: { [Type in StockEventType]: (data: DataOf<Type>) => Details } = {
  StockReceived: plain,
  StockAdjusted: (data) => ({ mode: data.mode, counterpartWarehouseId: null }),
  StockReserved: plain,
  StockReleased: plain,
  StockProcessingStarted: plain,
  StockProcessingStopped: plain,
  StockShipped: (data) => ({ mode: data.from, counterpartWarehouseId: null }),
  StockReturned: plain,
  StockTransferredOut: (data) => ({ mode: null, counterpartWarehouseId: data.toWarehouseId }),
  StockTransferredIn: (data) => ({ mode: null, counterpartWarehouseId: data.fromWarehouseId }),
  StockWrittenOff: plain,
  StockHeld: (data) => ({ mode: data.hold, counterpartWarehouseId: null }),
  StockHoldReleased: (data) => ({ mode: data.hold, counterpartWarehouseId: null }),
  StockIncomingExpected: plain,
  StockIncomingCancelled: plain,
};

/** The ledger row of one stock event. */
export function movementRow(event: RecordedEvent): NewStockMovementRow {
  const type = event.type as StockEventType;
  const data = event.data as DataOf<StockEventType>;
  const details = (handlers[type] as (data: DataOf<StockEventType>) => Details)(data);
  return {
    tenant_id: event.metadata.tenantId,
    master_code_id: data.masterCodeId,
    warehouse_id: data.warehouseId,
    revision: event.revision.toString(),
    event_id: event.id,
    occurred_at: event.metadata.occurredAt,
    action: type,
    mode: details.mode,
    quantity: data.quantity,
    previous_stock: data.onHand - data.change,
    change: data.change,
    stock_in: Math.max(data.change, 0),
    stock_out: Math.max(-data.change, 0),
    new_stock: data.onHand,
    reserved: data.reserved,
    in_process: data.inProcess,
    on_hold: data.onHold,
    pos_on_hold: data.posOnHold,
    supplier_on_hold: data.supplierOnHold,
    incoming: data.incoming,
    counterpart_warehouse_id: details.counterpartWarehouseId,
    reason: data.reason ?? null,
    source_type: data.source?.type ?? null,
    source_id: data.source?.id ?? null,
    created_by: event.metadata.userId ?? null,
    global_position: event.position.prepare.toString(),
  };
}

const MOVEMENT_COLUMNS = [
  ['tenant_id', 'text'],
  ['master_code_id', 'text'],
  ['warehouse_id', 'text'],
  ['revision', 'bigint'],
  ['event_id', 'uuid'],
  ['occurred_at', 'timestamptz'],
  ['action', 'text'],
  ['mode', 'text'],
  ['quantity', 'bigint'],
  ['previous_stock', 'bigint'],
  ['change', 'bigint'],
  ['stock_in', 'bigint'],
  ['stock_out', 'bigint'],
  ['new_stock', 'bigint'],
  ['reserved', 'bigint'],
  ['in_process', 'bigint'],
  ['on_hold', 'bigint'],
  ['pos_on_hold', 'bigint'],
  ['supplier_on_hold', 'bigint'],
  ['incoming', 'bigint'],
  ['counterpart_warehouse_id', 'text'],
  ['reason', 'text'],
  ['source_type', 'text'],
  ['source_id', 'text'],
  ['created_by', 'text'],
  ['global_position', 'bigint'],
] as const satisfies readonly (readonly [keyof StockMovementsTable, string])[];

export const stockProjection = defineProjection({
  name: STOCK_PROJECTION,
  eventTypes: STOCK_EVENT_TYPES,
  tables: ['stock_levels', 'stock_movements'],
  async apply(trx, events) {
    const rows = events.map(movementRow);

    // The ledger: one INSERT of column arrays for the whole batch (a rebuild writes thousands of rows at once).
    const arrays = MOVEMENT_COLUMNS.map(([column, type]) => {
      const values = rows.map((row) => row[column] ?? null);
      return sql`${values}::${sql.raw(type)}[]`;
    });
    await sql`
      INSERT INTO stock_movements (${sql.join(MOVEMENT_COLUMNS.map(([column]) => sql.ref(column)))})
      SELECT * FROM unnest(${sql.join(arrays)})`.execute(trx);

    // The levels: the figures of each stock's last event in the batch, and how many movements it added.
    const levels = new Map<string, { row: NewStockMovementRow; count: number }>();
    for (const row of rows) {
      const key = `${row.tenant_id}\u0000${row.master_code_id}\u0000${row.warehouse_id}`;
      const level = levels.get(key);
      if (!level) levels.set(key, { row, count: 1 });
      else {
        level.count += 1;
        if (BigInt(row.revision) > BigInt(level.row.revision)) level.row = row;
      }
    }
    await trx
      .insertInto('stock_levels')
      .values(
        [...levels.values()].map(({ row, count }) => ({
          tenant_id: row.tenant_id,
          master_code_id: row.master_code_id,
          warehouse_id: row.warehouse_id,
          on_hand: row.new_stock,
          reserved: row.reserved,
          in_process: row.in_process,
          on_hold: row.on_hold,
          pos_on_hold: row.pos_on_hold,
          supplier_on_hold: row.supplier_on_hold,
          incoming: row.incoming,
          last_movement_at: row.occurred_at,
          movements: count,
          last_revision: row.revision,
          last_position: row.global_position,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'master_code_id', 'warehouse_id']).doUpdateSet({
          on_hand: sql`excluded.on_hand`,
          reserved: sql`excluded.reserved`,
          in_process: sql`excluded.in_process`,
          on_hold: sql`excluded.on_hold`,
          pos_on_hold: sql`excluded.pos_on_hold`,
          supplier_on_hold: sql`excluded.supplier_on_hold`,
          incoming: sql`excluded.incoming`,
          last_movement_at: sql`excluded.last_movement_at`,
          movements: sql`stock_levels.movements + excluded.movements`,
          last_revision: sql`excluded.last_revision`,
          last_position: sql`excluded.last_position`,
        }),
      )
      .execute();

    const changes = new Map<string, LiveChange>();
    for (const { row } of levels.values()) {
      const change = changes.get(row.tenant_id) ?? { tenantId: row.tenant_id, view: STOCK_VIEW, ids: [] };
      change.ids.push(stockKey(row.master_code_id, row.warehouse_id));
      changes.set(row.tenant_id, change);
    }
    return [...changes.values()];
  },
});

// ---- queries: each filters on the tenant and runs inside withTenant (row-level security) ----

/** Every figure of a stock, and what the channels may sell of it. */
export interface StockFigures extends StockState {
  available: number;
}

export interface StockLevel extends StockFigures {
  masterCodeId: string;
  warehouseId: string;
  /** Available below zero: sold more than there is (marketplaces oversell). */
  negative: boolean;
  lastMovementAt: Date;
  movements: number;
}

/** One movement of the ledger; its figures are the stock's after it (`onHand` is the new stock). */
export interface StockMovement extends StockFigures {
  masterCodeId: string;
  warehouseId: string;
  /** The movement's place in its stock's stream, from 0. */
  revision: number;
  eventId: string;
  occurredAt: Date;
  /** The event type: the movement report's action. */
  action: StockEventType;
  /** add, deduct or set, for adjustments. */
  mode: string | null;
  quantity: number;
  previousStock: number;
  change: number;
  stockIn: number;
  stockOut: number;
  newStock: number;
  /** The other warehouse of a transfer. */
  counterpartWarehouseId: string | null;
  /** The movement report's description. */
  reason: string | null;
  source: { type: string; id: string } | null;
  createdBy: string | null;
  globalPosition: string;
}

function figures(row: StockLevelRow | StockMovementRow, onHand: string): StockFigures {
  const state: StockState = {
    onHand: Number(onHand),
    reserved: Number(row.reserved),
    inProcess: Number(row.in_process),
    onHold: Number(row.on_hold),
    posOnHold: Number(row.pos_on_hold),
    supplierOnHold: Number(row.supplier_on_hold),
    incoming: Number(row.incoming),
  };
  return { ...state, available: available(state) };
}

const toLevel = (row: StockLevelRow): StockLevel => ({
  masterCodeId: row.master_code_id,
  warehouseId: row.warehouse_id,
  ...figures(row, row.on_hand),
  negative: row.negative,
  lastMovementAt: row.last_movement_at,
  movements: Number(row.movements),
});

/** A ledger row as the queries hand it over. */
export const toMovement = (row: StockMovementRow): StockMovement => ({
  masterCodeId: row.master_code_id,
  warehouseId: row.warehouse_id,
  revision: Number(row.revision),
  eventId: row.event_id,
  occurredAt: row.occurred_at,
  action: row.action as StockEventType,
  mode: row.mode,
  quantity: Number(row.quantity),
  previousStock: Number(row.previous_stock),
  change: Number(row.change),
  stockIn: Number(row.stock_in),
  stockOut: Number(row.stock_out),
  newStock: Number(row.new_stock),
  ...figures(row, row.new_stock),
  counterpartWarehouseId: row.counterpart_warehouse_id,
  reason: row.reason,
  source:
    row.source_type !== null && row.source_id !== null ? { type: row.source_type, id: row.source_id } : null,
  createdBy: row.created_by,
  globalPosition: row.global_position,
});

/** The largest page a grid may ask for. */
export const MAX_PAGE = 1000;

/** A grid page, ag-grid style: rows [startRow, endRow); `lastRow` is known once a page comes back short. */
export interface Page<T> {
  rows: T[];
  lastRow: number | null;
}

function pageBounds(startRow: number, endRow: number): { offset: number; limit: number } {
  if (!Number.isInteger(startRow) || !Number.isInteger(endRow) || startRow < 0 || endRow <= startRow) {
    throw new RangeError(`rows [${startRow}, ${endRow}) are not a page`);
  }
  return { offset: startRow, limit: Math.min(endRow - startRow, MAX_PAGE) };
}

/** An instant as Postgres compares it; a string that is not one is refused here, not by the server. */
function instantOf(value: Date | string): Date {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new RangeError(`"${String(value)}" is not an instant`);
  return date;
}

function toPage<T>(rows: T[], offset: number, limit: number): Page<T> {
  return { rows, lastRow: rows.length < limit ? offset + rows.length : null };
}

/** The stock of one master code in one warehouse; null when it never moved. */
export async function stockLevel(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
): Promise<StockLevel | null> {
  const row = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stock_levels')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', masterCodeId)
      .where('warehouse_id', '=', warehouseId)
      .executeTakeFirst(),
  );
  return row ? toLevel(row) : null;
}

/** The stock of these master codes, in every warehouse where it moved. */
export async function stockLevelsOf(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeIds: readonly string[],
): Promise<StockLevel[]> {
  if (masterCodeIds.length === 0) return [];
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stock_levels')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`master_code_id = ANY(${[...masterCodeIds]}::text[])`)
      .execute(),
  );
  return rows.map(toLevel);
}

export interface MovementQuery {
  masterCodeId?: string;
  warehouseId?: string;
  /** From this instant, inclusive. */
  from?: Date | string;
  /** Up to this instant, inclusive. */
  to?: Date | string;
  type?: StockEventType | readonly StockEventType[];
  startRow: number;
  endRow: number;
}

/** The movement report: the tenant's ledger, newest first, filtered and paged. */
export async function movements(
  db: Kysely<Database>,
  tenantId: string,
  query: MovementQuery,
): Promise<Page<StockMovement>> {
  const { offset, limit } = pageBounds(query.startRow, query.endRow);
  const types =
    query.type === undefined ? undefined : typeof query.type === 'string' ? [query.type] : query.type;
  if (types?.length === 0) return { rows: [], lastRow: 0 };
  const rows = await withTenant(db, tenantId, (trx) => {
    let select = trx.selectFrom('stock_movements').selectAll().where('tenant_id', '=', tenantId);
    if (query.masterCodeId !== undefined) select = select.where('master_code_id', '=', query.masterCodeId);
    if (query.warehouseId !== undefined) select = select.where('warehouse_id', '=', query.warehouseId);
    if (query.from !== undefined) select = select.where('occurred_at', '>=', instantOf(query.from));
    if (query.to !== undefined) select = select.where('occurred_at', '<=', instantOf(query.to));
    if (types) select = select.where('action', 'in', [...types]);
    return select
      .orderBy('occurred_at', 'desc')
      .orderBy('master_code_id', 'desc')
      .orderBy('warehouse_id', 'desc')
      .orderBy('revision', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  });
  return toPage(rows.map(toMovement), offset, limit);
}

/**
 * The last movement of a stock at or before `instant`: the one whose figures were the stock then. Movements are
 * ordered by their time, then by revision when two share it; two commands racing on one stock may record times
 * a few milliseconds out of revision order, and the answer is then the stock after the later-timed one.
 */
async function movementAt(
  trx: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  instant: Date | string,
): Promise<StockMovementRow | undefined> {
  return trx
    .selectFrom('stock_movements')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('master_code_id', '=', masterCodeId)
    .where('warehouse_id', '=', warehouseId)
    .where('occurred_at', '<=', instantOf(instant))
    .orderBy('occurred_at', 'desc')
    .orderBy('revision', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export interface StockAt extends StockFigures {
  /** The movement that left the stock so; null before the first movement (all figures 0). */
  asOf: StockMovement | null;
}

/** The stock of one master code in one warehouse as it was at `instant`: one index lookup. */
export async function stockAt(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  instant: Date | string,
): Promise<StockAt> {
  const row = await withTenant(db, tenantId, (trx) =>
    movementAt(trx, tenantId, masterCodeId, warehouseId, instant),
  );
  if (!row) return { ...initialState, available: 0, asOf: null };
  const asOf = toMovement(row);
  return {
    onHand: asOf.onHand,
    reserved: asOf.reserved,
    inProcess: asOf.inProcess,
    onHold: asOf.onHold,
    posOnHold: asOf.posOnHold,
    supplierOnHold: asOf.supplierOnHold,
    incoming: asOf.incoming,
    available: asOf.available,
    asOf,
  };
}

export interface MovementsUntil {
  asOf: StockMovement | null;
  /** The movements that led to `asOf`, oldest first, ending with it: the last `limit` of them. */
  movements: StockMovement[];
  /** How many movements led to `asOf` in all (its revision + 1). */
  total: number;
}

/**
 * The auditor's replay: the stock at `instant` and the movements that led to it, in stream order. A long history
 * comes a page at a time, newest page first: pass the first revision of a page as `beforeRevision` for the one
 * before it.
 */
export async function movementsUntil(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  instant: Date | string,
  opts: { limit?: number; beforeRevision?: number } = {},
): Promise<MovementsUntil> {
  const limit = Math.max(1, Math.min(opts.limit ?? 100, MAX_PAGE));
  return withTenant(db, tenantId, async (trx) => {
    const asOf = await movementAt(trx, tenantId, masterCodeId, warehouseId, instant);
    if (!asOf) return { asOf: null, movements: [], total: 0 };
    let upTo = BigInt(asOf.revision);
    if (opts.beforeRevision !== undefined && BigInt(opts.beforeRevision) - 1n < upTo) {
      upTo = BigInt(opts.beforeRevision) - 1n;
    }
    const rows = await trx
      .selectFrom('stock_movements')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', masterCodeId)
      .where('warehouse_id', '=', warehouseId)
      .where('revision', '<=', upTo.toString())
      .orderBy('revision', 'desc')
      .limit(limit)
      .execute();
    return {
      asOf: toMovement(asOf),
      movements: rows.reverse().map(toMovement),
      total: Number(asOf.revision) + 1,
    };
  });
}
