import { randomUUID } from 'node:crypto';
import type { SellerSession } from '@api/auth/session';
import {
  IDEMPOTENCY_KEY_MAX,
  idempotencyKeyField,
  idempotencyKeyOf,
  masterCodeOfTenant,
  placeOfTenant,
  wholeStore,
} from '@api/documents';
import { ApiError, invalid } from '@api/errors';
import { moveStock } from '@commands/inventory/move-stock';
import type { StockCommandResult } from '@commands/inventory/stock';
import { StockCode } from '@domain/inventory/codes';
import {
  available,
  figuresOf,
  HOLD_KINDS,
  STOCK_EVENT_TYPES,
  type StockCommand,
  type StockEvent,
} from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyRequest } from 'fastify';
import { type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { type InitialStock, lockTenant, logActivity, QUANTITY_MAX, violation } from './common';

/**
 * What the stock routes share (api/inventory/stock.ts has the route list): result codes, the lookups every stock
 * route starts with (the master code and the warehouse must be the tenant's: another tenant's is simply missing), the
 * tenant's stock settings, the idempotency key, running a stock command with its refusals mapped to answers, and
 * the answer shape of one movement.
 */

export interface StockDeps {
  db: Kysely<Database>;
  /** The app's event store; the stock routes need it whole (AppDeps types only what /api/health reads). */
  store: Pick<EventStore, 'kind'>;
}

/** The store as a command handler needs it. */
export const commandStore = (store: Pick<EventStore, 'kind'>) => wholeStore(store, 'stock');

export const tags = ['inventory-stock'];

// ---- field schemas ----

export const STOCK_TEXT_MAX = 500;

export const quantityInvalid = invalid(StockCode.quantityInvalid, 'stock.quantity_invalid', {
  max: QUANTITY_MAX,
});
export const setQuantityInvalid = invalid(StockCode.quantityInvalid, 'stock.set_quantity_invalid', {
  max: QUANTITY_MAX,
});

/** A whole number of pieces, 1 to QUANTITY_MAX; `set` takes 0 too (checked by the body's refinement). */
export const Quantity = z
  .number({ error: quantityInvalid })
  .int(quantityInvalid)
  .min(0, quantityInvalid)
  .max(QUANTITY_MAX, quantityInvalid);

export const StockText = z
  .string({ error: invalid(400, 'stock.text_invalid') })
  .trim()
  .max(STOCK_TEXT_MAX, invalid(400, 'stock.too_long', { max: STOCK_TEXT_MAX }));

/** An id in a body or query; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z
  .string({ error: invalid(400, 'stock.id_invalid') })
  .trim()
  .min(1, invalid(400, 'stock.id_invalid'))
  .max(64, invalid(400, 'stock.id_invalid'));

export const IdempotencyKey = idempotencyKeyField(
  invalid(StockCode.keyInvalid, 'stock.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
);

/** An instant in a query: ISO 8601 with a time zone (`2026-01-31T12:00:00Z`), or a bare date (UTC midnight). */
export const Instant = z
  .string({ error: invalid(StockCode.timeInvalid, 'stock.time_invalid') })
  .max(40, invalid(StockCode.timeInvalid, 'stock.time_invalid'))
  .regex(
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/,
    invalid(StockCode.timeInvalid, 'stock.time_invalid'),
  )
  .transform((text, ctx) => {
    const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: invalid(StockCode.timeInvalid, 'stock.time_invalid') });
      return z.NEVER;
    }
    return date;
  });

// ---- lookups ----

type Db = Kysely<Database> | Transaction<Database>;

export interface Target {
  masterCode: { id: string; code: string; name: string; type: 'standard' | 'combo'; status: string };
  warehouse: { id: string; code: string; name: string; kind: 'warehouse' | 'branch' };
}

export const masterCodeMissing = () => new ApiError(404, 404, 'stock.master_code_not_found');
export const warehouseMissing = () => new ApiError(404, 404, 'stock.warehouse_not_found');
export const comboRefused = (code: string) =>
  new ApiError(409, StockCode.comboHasNoStock, 'stock.combo_has_no_stock', { code });

export async function findMasterCodeOf(db: Db, tenantId: string, id: string) {
  const row = await masterCodeOfTenant(db, tenantId, id);
  if (!row) throw masterCodeMissing();
  return row;
}

export async function findWarehouseOf(db: Db, tenantId: string, id: string) {
  const row = await placeOfTenant(db, tenantId, id);
  if (!row) throw warehouseMissing();
  return row;
}

/**
 * The master code and the warehouse (or branch) a stock route names, both the tenant's: an unknown id and another
 * tenant's answer the same 404. The master code is checked first. A combo has no stock of its own (409) unless
 * `combo` says the caller derives it. Inactive master codes are found: their stock can still be counted and written
 * down after they stop selling.
 */
export async function findTarget(
  db: Db,
  tenantId: string,
  masterCodeId: string,
  warehouseId: string,
  opts: { combo?: 'refuse' | 'allow' } = {},
): Promise<Target> {
  const masterCode = await findMasterCodeOf(db, tenantId, masterCodeId);
  const warehouse = await findWarehouseOf(db, tenantId, warehouseId);
  if (masterCode.type === 'combo' && opts.combo !== 'allow') throw comboRefused(masterCode.code);
  return { masterCode, warehouse };
}

// ---- settings ----

export interface StockSettings {
  refuse_negative_manual: boolean;
  updated_at: string | null;
}

export const DEFAULT_SETTINGS = { refuse_negative_manual: true } as const;

export async function stockSettings(db: Db, tenantId: string): Promise<StockSettings> {
  const row = await db
    .selectFrom('inventory_settings')
    .select(['refuse_negative_manual', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row
    ? { refuse_negative_manual: row.refuse_negative_manual, updated_at: row.updated_at.toISOString() }
    : { ...DEFAULT_SETTINGS, updated_at: null };
}

// ---- idempotency ----

/**
 * The command id of a request: the `Idempotency-Key` header or the body's `idempotency_key` (both given, they must
 * agree), scoped by tenant so two accounts never share one; without a key, a fresh id (the request is not retried
 * safely). The key becomes the event id (commands/support/ids.ts), so a retry moves stock once.
 */
export function commandIdOf(request: FastifyRequest, tenantId: string, bodyKey: string | undefined): string {
  const key = idempotencyKeyOf(request, bodyKey, {
    invalid: () =>
      new ApiError(400, StockCode.keyInvalid, 'stock.idempotency_key_invalid', { max: IDEMPOTENCY_KEY_MAX }),
    mismatch: () => new ApiError(400, StockCode.keyInvalid, 'stock.idempotency_key_mismatch'),
  });
  return key === undefined ? `${tenantId}:${randomUUID()}` : `${tenantId}:${key}`;
}

// ---- running a command ----

/** Runs one stock movement a person asked for (commands/inventory/move-stock.ts). */
export const runStockCommand = (
  store: Pick<EventStore, 'kind'>,
  command: StockCommand,
  context: { tenantId: string; userId?: string; commandId: string },
): Promise<StockCommandResult> =>
  moveStock(
    { store: commandStore(store) },
    { tenantId: context.tenantId, userId: context.userId },
    { command, commandId: context.commandId },
  );

// ---- the answer of one movement ----

/** What a movement's `mode` holds: an adjustment's mode, a hold's kind, or where a shipment was taken from. */
export const MOVEMENT_MODES = [
  'add',
  'deduct',
  'set',
  ...HOLD_KINDS,
  'reserved',
  'inProcess',
  'free',
] as const;
export type MovementMode = (typeof MOVEMENT_MODES)[number];

/** The mode of a stock event, as the movement report shows it (projections/stock.ts stores the same). */
export function modeOf(event: StockEvent): MovementMode | null {
  switch (event.type) {
    case 'StockAdjusted':
      return event.data.mode;
    case 'StockHeld':
    case 'StockHoldReleased':
      return event.data.hold;
    case 'StockShipped':
      return event.data.from;
    default:
      return null;
  }
}

/** Every stock figure after a movement (spec §3 "Stock figures"), as the API names them. */
export const FigureFields = {
  on_hand: z.number().int(),
  reserved: z.number().int(),
  /** Held by orders being picked and packed. */
  in_process: z.number().int(),
  /** Set aside by the seller. */
  on_hold: z.number().int(),
  /** Held by parked Smart POS sales. */
  pos_on_hold: z.number().int(),
  /** Set aside for a supplier. */
  supplier_on_hold: z.number().int(),
  /** Expected from a supplier or in transit; not part of on hand. */
  incoming: z.number().int(),
  /** Available online: on hand − reserved − in process − the three holds. */
  available: z.number().int(),
};
export interface FigureAnswer {
  on_hand: number;
  reserved: number;
  in_process: number;
  on_hold: number;
  pos_on_hold: number;
  supplier_on_hold: number;
  incoming: number;
  available: number;
}

/** The figures of the projection's or the domain's camel-case shape, as the API names them. */
export function figureAnswer(figures: {
  onHand: number;
  reserved: number;
  inProcess: number;
  onHold: number;
  posOnHold: number;
  supplierOnHold: number;
  incoming: number;
}): FigureAnswer {
  return {
    on_hand: figures.onHand,
    reserved: figures.reserved,
    in_process: figures.inProcess,
    on_hold: figures.onHold,
    pos_on_hold: figures.posOnHold,
    supplier_on_hold: figures.supplierOnHold,
    incoming: figures.incoming,
    available: available(figures),
  };
}

export const StockMovementAnswer = z.object({
  master_code: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  /** The event type: StockReceived, StockAdjusted, … */
  action: z.enum(STOCK_EVENT_TYPES),
  /** add, deduct or set for an adjustment; online, pos or supplier for a hold; reserved, inProcess or free for a
   * shipment; null otherwise. */
  mode: z.enum(MOVEMENT_MODES).nullable(),
  /** What was entered: units received, added or deducted, or the counted quantity for `set`. */
  quantity: z.number().int(),
  previous_stock: z.number().int(),
  /** Signed change to on hand. */
  change: z.number().int(),
  ...FigureFields,
  reason: z.string().nullable(),
  /** The movement's place in its stock's stream, from 0. */
  revision: z.number().int(),
});
export type StockMovementAnswer = z.infer<typeof StockMovementAnswer>;

export function movementAnswer(target: Target, result: StockCommandResult): StockMovementAnswer {
  const { event } = result;
  const data = event.data;
  return {
    master_code: { id: target.masterCode.id, code: target.masterCode.code, name: target.masterCode.name },
    warehouse: { id: target.warehouse.id, code: target.warehouse.code, name: target.warehouse.name },
    action: event.type,
    mode: modeOf(event),
    quantity: data.quantity,
    previous_stock: data.onHand - data.change,
    change: data.change,
    ...figureAnswer(figuresOf(data)),
    reason: data.reason ?? null,
    revision: Number(result.revision),
  };
}

// ---- initial quantity ----

export const INITIAL_QUANTITY_REASON = 'Initial quantity';
export const MAIN_WAREHOUSE = { code: 'MAIN', name: 'Main warehouse' } as const;

/**
 * The tenant's default warehouse; when the tenant has no warehouse at all yet, a default "Main warehouse" (code
 * MAIN, or MAIN-2, MAIN-3… when a branch holds that code) is created first, so the stock lands somewhere.
 */
export async function defaultWarehouse(
  db: Kysely<Database>,
  session: Pick<SellerSession, 'tenantId' | 'userId'>,
): Promise<string> {
  const { tenantId } = session;
  const current = async (trx: Db) =>
    (
      await trx
        .selectFrom('warehouses')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('is_default', '=', true)
        .executeTakeFirst()
    )?.id;
  const found = await current(db);
  if (found) return found;
  return db.transaction().execute(async (trx) => {
    // The same lock the warehouse routes take to keep one default per tenant.
    await lockTenant(trx, tenantId);
    const raced = await current(trx);
    if (raced) return raced;
    const id = randomUUID();
    for (let n = 1; ; n++) {
      const code = n === 1 ? MAIN_WAREHOUSE.code : `${MAIN_WAREHOUSE.code}-${n}`;
      try {
        // A code taken by a branch aborts the insert only, through this savepoint.
        await sql`SAVEPOINT main_warehouse`.execute(trx);
        await trx
          .insertInto('warehouses')
          .values({
            id,
            tenant_id: tenantId,
            kind: 'warehouse',
            code,
            name: MAIN_WAREHOUSE.name,
            is_default: true,
          })
          .execute();
        await sql`RELEASE SAVEPOINT main_warehouse`.execute(trx);
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'warehouse.created',
          subjectType: 'warehouse',
          subjectId: id,
          detail: { code, name: MAIN_WAREHOUSE.name, kind: 'warehouse', is_default: true, automatic: true },
        });
        return id;
      } catch (error) {
        if (!violation(error, '23505', 'warehouses_code_idx') || n >= 20) throw error;
        await sql`ROLLBACK TO SAVEPOINT main_warehouse`.execute(trx);
      }
    }
  });
}

/**
 * The master code routes call this once the new row is committed: the quantity is received into the default
 * warehouse with command id `initial:<masterCodeId>`, so a retry never receives it twice.
 */
export function initialStockReceiver(db: Kysely<Database>, store: Pick<EventStore, 'kind'>): InitialStock {
  return async (session, masterCodeId, quantity) => {
    if (quantity <= 0) return;
    const warehouseId = await defaultWarehouse(db, session);
    await runStockCommand(
      store,
      {
        type: 'ReceiveStock',
        masterCodeId,
        warehouseId,
        quantity,
        reason: INITIAL_QUANTITY_REASON,
        source: { type: 'master_code', id: masterCodeId },
      },
      { tenantId: session.tenantId, userId: session.userId, commandId: `initial:${masterCodeId}` },
    );
  };
}
