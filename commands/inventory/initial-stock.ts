import { randomUUID } from 'node:crypto';
import { movementReason } from '@domain/inventory/movement-reasons';
import { fromUnits, toUnits } from '@domain/purchases/money';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import type { EventStore } from '@infra/eventstore/port';
import { type Kysely, sql, type Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { wholeStore } from '../support/document';
import { lockTenant } from '../support/locks';
import { moveStock } from './move-stock';

type Db = Kysely<Database> | Transaction<Database>;

export const MAIN_WAREHOUSE = { code: 'MAIN', name: 'Main warehouse' } as const;

/**
 * The tenant's default warehouse; when the tenant has no warehouse at all yet, a default "Main warehouse" (code
 * MAIN, or MAIN-2, MAIN-3… when a branch holds that code) is created first, so the stock lands somewhere.
 */
export async function defaultWarehouse(db: Kysely<Database>, session: Required<Actor>): Promise<string> {
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

/** Receives a new master code's initial quantity at its cost (the master code routes' `initialStock`). */
export type InitialStock = (
  actor: Required<Actor>,
  masterCodeId: string,
  quantity: number,
  cost: string,
) => Promise<void>;

export const initialStockReceiver =
  (db: Kysely<Database>, store: Pick<EventStore, 'kind'>): InitialStock =>
  (actor, masterCodeId, quantity, cost) =>
    receiveInitialStock({ db, store: wholeStore(store, 'stock') }, actor, { masterCodeId, quantity, cost });

/**
 * A new master code's initial quantity, received into the default warehouse once the master code is committed, with
 * command id `initial:<masterCodeId>`, so that a retry never receives it twice. The units come in at the master
 * code's cost (not at nothing), so the average cost starts where the seller said it does.
 */
export async function receiveInitialStock(
  deps: { db: Kysely<Database>; store: EventStore },
  actor: Required<Actor>,
  input: { masterCodeId: string; quantity: number; cost: string },
): Promise<void> {
  if (input.quantity <= 0) return;
  const warehouseId = await defaultWarehouse(deps.db, actor);
  await moveStock({ store: deps.store }, actor, {
    command: {
      type: 'ReceiveStock',
      masterCodeId: input.masterCodeId,
      warehouseId,
      quantity: input.quantity,
      reason: movementReason('initial_quantity'),
      source: { type: 'master_code', id: input.masterCodeId },
      unitCost: fromUnits(toUnits(input.cost)),
    },
    commandId: `initial:${input.masterCodeId}`,
  });
}
