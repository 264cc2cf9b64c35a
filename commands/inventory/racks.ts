import { randomUUID } from 'node:crypto';
import type { MasterCodeLocation } from '@api/contracts/inventory-master-codes';
import type { LocationBody, NewRack, Rack, RackChanges } from '@api/contracts/inventory-racks';
import { refuseRack } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { masterCodeLocations } from '@projections/inventory/master-codes';
import { rackById } from '@projections/inventory/racks';
import type { Kysely, Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { noStock, type StockOf } from './reference-support';

/**
 * Writing racks and master codes' rack locations (spec §3; projections/inventory/racks.ts reads them). A rack a master
 * code still sits on is not deleted. A master code leaves a place only with 0 stock there: "Only 0 quantity able to
 * be removed from a branch" (spec §5, §8). A combo has no stock of its own, so it has no rack location either.
 */

type Deps = { db: Kysely<Database>; stockOf?: StockOf };
type Db = Kysely<Database> | Transaction<Database>;

async function requireWarehouse(db: Db, tenantId: string, id: string) {
  const row = isUuid(id)
    ? await db
        .selectFrom('warehouses')
        .select(['id', 'kind', 'code', 'name'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw refuseRack('WAREHOUSE_NOT_FOUND');
  return row;
}

const rackRefusal = (error: unknown, name: string | undefined) =>
  violation(error, '23505', 'racks_name_idx') ? refuseRack('NAME_TAKEN', { name: name ?? '' }) : error;

/** A row of this tenant, locked for the change; another tenant's, or an id that is not a uuid, is missing. */
async function lockOwned<Row>(id: string, select: (id: string) => Promise<Row | undefined>): Promise<Row> {
  const row = isUuid(id) ? await select(id) : undefined;
  if (!row) throw refuseRack('NOT_FOUND');
  return row;
}

const lockRack = (trx: Transaction<Database>, tenantId: string, id: string) =>
  lockOwned(id, (uuid) =>
    trx
      .selectFrom('racks')
      .select(['id', 'warehouse_id', 'name', 'status', 'note'])
      .where('id', '=', uuid)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst(),
  );

/** The master code, locked for a location change. */
const lockMasterCode = (trx: Transaction<Database>, tenantId: string, id: string) =>
  lockOwned(id, (uuid) =>
    trx
      .selectFrom('master_codes')
      .select(['id', 'code', 'type'])
      .where('id', '=', uuid)
      .where('tenant_id', '=', tenantId)
      .forUpdate()
      .executeTakeFirst(),
  );

/** The rack as the API answers it, once written. */
async function rackAnswer(db: Db, tenantId: string, id: string): Promise<Rack> {
  const rack = await rackById(db, tenantId, id);
  if (!rack) throw refuseRack('NOT_FOUND');
  return rack;
}

/** Adds a rack to a warehouse or branch (names are unique within the place). */
export async function createRack(deps: Deps, actor: Actor, body: NewRack): Promise<Rack> {
  const { tenantId } = actor;
  const id = randomUUID();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const warehouse = await requireWarehouse(trx, tenantId, body.warehouse_id);
      await trx
        .insertInto('racks')
        .values({ ...body, id, tenant_id: tenantId, warehouse_id: warehouse.id })
        .execute();
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'rack.created',
        subjectType: 'rack',
        subjectId: id,
        detail: { ...body, warehouse_id: warehouse.id },
      });
    });
  } catch (error) {
    // The place deleted between the check and the write.
    if (violation(error, '23503')) throw refuseRack('WAREHOUSE_NOT_FOUND');
    throw rackRefusal(error, body.name);
  }
  return rackAnswer(deps.db, tenantId, id);
}

/** Renames a rack, or changes its status or note. */
export async function changeRack(
  deps: Deps,
  actor: Actor,
  input: { id: string; changes: RackChanges },
): Promise<Rack> {
  const { tenantId } = actor;
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = await lockRack(trx, tenantId, input.id);
      await trx
        .updateTable('racks')
        .set({ ...input.changes, updated_at: new Date() })
        .where('id', '=', before.id)
        .execute();
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: 'rack.updated',
        subjectType: 'rack',
        subjectId: before.id,
        detail: {
          from: { name: before.name, status: before.status, note: before.note },
          changes: input.changes,
        },
      });
    });
  } catch (error) {
    throw rackRefusal(error, input.changes.name);
  }
  return rackAnswer(deps.db, tenantId, input.id);
}

/** Deletes a rack no master code sits on. */
export async function deleteRack(deps: Deps, actor: Actor, input: { id: string }): Promise<string> {
  const { tenantId } = actor;
  return deps.db.transaction().execute(async (trx) => {
    const row = await lockRack(trx, tenantId, input.id);
    const used = await trx
      .selectFrom('master_code_locations')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('rack_id', '=', row.id)
      .executeTakeFirstOrThrow();
    if (Number(used.n) > 0) throw refuseRack('IN_USE', { count: Number(used.n) });
    await trx.deleteFrom('racks').where('id', '=', row.id).execute();
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'rack.deleted',
      subjectType: 'rack',
      subjectId: row.id,
      detail: { name: row.name, warehouse_id: row.warehouse_id },
    });
    return row.id;
  });
}

/** Puts a master code in a warehouse or branch, on a rack of that place or none. Answers the master code's id. */
export async function setLocation(
  deps: Deps,
  actor: Actor,
  input: { masterCodeId: string; location: LocationBody },
): Promise<MasterCodeLocation[]> {
  const { tenantId } = actor;
  const body = input.location;
  const masterCodeId = await deps.db.transaction().execute(async (trx) => {
    const masterCode = await lockMasterCode(trx, tenantId, input.masterCodeId);
    if (masterCode.type === 'combo') throw refuseRack('COMBO_NO_LOCATION');
    const warehouse = await requireWarehouse(trx, tenantId, body.warehouse_id);
    let rackId: string | null = null;
    if (body.rack_id !== null) {
      const found = isUuid(body.rack_id)
        ? await trx
            .selectFrom('racks')
            .select('id')
            .where('id', '=', body.rack_id)
            .where('tenant_id', '=', tenantId)
            .where('warehouse_id', '=', warehouse.id)
            .forShare()
            .executeTakeFirst()
        : undefined;
      if (!found) throw refuseRack('RACK_NOT_FOUND');
      rackId = found.id;
    }
    const now = new Date();
    await trx
      .insertInto('master_code_locations')
      .values({
        tenant_id: tenantId,
        master_code_id: masterCode.id,
        warehouse_id: warehouse.id,
        rack_id: rackId,
        note: body.note,
      })
      .onConflict((oc) =>
        oc
          .columns(['master_code_id', 'warehouse_id'])
          .doUpdateSet({ rack_id: rackId, note: body.note, updated_at: now }),
      )
      .execute();
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'master_code_location.set',
      subjectType: 'master_code_location',
      subjectId: masterCode.id,
      detail: { warehouse_id: warehouse.id, rack_id: rackId, note: body.note },
    });
    return masterCode.id;
  });
  return masterCodeLocations(deps.db, tenantId, masterCodeId);
}

/** Removes a master code from a warehouse or branch: only with 0 quantity there. Answers the master code's id. */
export async function removeLocation(
  deps: Deps,
  actor: Actor,
  input: { masterCodeId: string; warehouseId: string },
): Promise<MasterCodeLocation[]> {
  const { tenantId } = actor;
  const stockOf = deps.stockOf ?? noStock;
  const { warehouseId } = input;
  const masterCodeId = await deps.db.transaction().execute(async (trx) => {
    const masterCode = await lockMasterCode(trx, tenantId, input.masterCodeId);
    const location = isUuid(warehouseId)
      ? await trx
          .selectFrom('master_code_locations')
          .select(['warehouse_id', 'rack_id', 'note'])
          .where('tenant_id', '=', tenantId)
          .where('master_code_id', '=', masterCode.id)
          .where('warehouse_id', '=', warehouseId)
          .executeTakeFirst()
      : undefined;
    if (!location) throw refuseRack('NOT_FOUND');
    const onHand = await stockOf(tenantId, masterCode.id, location.warehouse_id);
    if (onHand !== 0) throw refuseRack('STOCK_REMAINS');
    await trx
      .deleteFrom('master_code_locations')
      .where('master_code_id', '=', masterCode.id)
      .where('warehouse_id', '=', location.warehouse_id)
      .execute();
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'master_code_location.removed',
      subjectType: 'master_code_location',
      subjectId: masterCode.id,
      detail: { ...location },
    });
    return masterCode.id;
  });
  return masterCodeLocations(deps.db, tenantId, masterCodeId);
}
