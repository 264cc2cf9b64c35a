import { randomUUID } from 'node:crypto';
import type {
  BranchChanges,
  NewBranch,
  NewWarehouse,
  Place,
  PlaceKind,
  WarehouseChanges,
} from '@api/contracts/inventory-warehouses';
import { refusePlace } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { holdsStock, placeById } from '@projections/inventory/warehouses';
import { type Kysely, sql, type Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { lockTenant } from '../support/locks';
import { MAIN_WAREHOUSE } from './initial-stock';
import { packageLimit } from './reference-support';

/**
 * Writing warehouses and branches (spec §3 "Warehouse and rack"; projections/inventory/warehouses.ts reads them).
 * Both are places that hold stock, so they share one table told apart by `kind`. Codes are unique per account across
 * both kinds. Exactly one warehouse is the default while any exists: the first one created becomes it, making another
 * the default clears the old one in the same transaction, and the default can be neither unset nor deleted while
 * other warehouses exist. The package's `branches` limit caps the branches. A place is deleted only when every stock
 * figure there is 0 (spec §5), taking its racks and rack locations with it; its code and name stay in
 * `removed_places` for the transfers and movements that name it.
 */

type Deps = { db: Kysely<Database> };
type Db = Kysely<Database> | Transaction<Database>;

/** The place of this kind, locked for the change (the tenant is locked first where a default or count is kept). */
async function lockPlace(trx: Transaction<Database>, tenantId: string, kind: PlaceKind, id: string) {
  const row = isUuid(id)
    ? await trx
        .selectFrom('warehouses')
        .select(['id', 'code', 'name', 'is_default'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', kind)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!row) throw refusePlace('NOT_FOUND');
  return row;
}

/** Makes `id` the tenant's only default warehouse. */
async function makeDefault(trx: Transaction<Database>, tenantId: string, id: string): Promise<string | null> {
  const previous = await trx
    .updateTable('warehouses')
    .set({ is_default: false, updated_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('is_default', '=', true)
    .where('id', '<>', id)
    .returning('id')
    .executeTakeFirst();
  await trx
    .updateTable('warehouses')
    .set({ is_default: true, updated_at: new Date() })
    .where('id', '=', id)
    .execute();
  return previous?.id ?? null;
}

function placeRefusal(error: unknown, code: string | undefined): unknown {
  if (violation(error, '23505', 'warehouses_code_idx'))
    return refusePlace('CODE_TAKEN', { code: code ?? '' });
  return error;
}

/**
 * Refuses while any stock stream of the place has a figure other than 0 (spec §5: only items with quantity 0 can be
 * removed from a branch). The stock read model is asked, not the rack locations: stock needs no rack location.
 */
async function requireNoStockIn(trx: Db, tenantId: string, warehouseId: string): Promise<void> {
  const held = await trx
    .selectFrom('stock_levels as s')
    .leftJoin('master_codes as m', (join) =>
      join.on('m.tenant_id', '=', tenantId).on(sql`m.id::text`, '=', sql.ref('s.master_code_id')),
    )
    .select(sql<string>`coalesce(m.code, s.master_code_id)`.as('code'))
    .where('s.tenant_id', '=', tenantId)
    .where('s.warehouse_id', '=', warehouseId)
    .where(holdsStock)
    .orderBy('code')
    .limit(1)
    .executeTakeFirst();
  if (held) throw refusePlace('STOCK_REMAINS', { code: held.code });
}

/** The place as the API answers it, once written. */
async function placeAnswer(db: Db, tenantId: string, kind: PlaceKind, id: string): Promise<Place> {
  const place = await placeById(db, tenantId, kind, id);
  if (!place) throw refusePlace('NOT_FOUND');
  return place;
}

/** Adds a warehouse (the first one, or one marked default, becomes the default) or a branch (within the package). */
export async function createPlace(
  deps: Deps,
  actor: Actor,
  input: { kind: PlaceKind; place: NewWarehouse | NewBranch },
): Promise<Place> {
  const { tenantId } = actor;
  const { kind, place: body } = input;
  const id = randomUUID();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await lockTenant(trx, tenantId);
      let makeThisDefault = false;
      if ('is_default' in body) {
        const current = await trx
          .selectFrom('warehouses')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('is_default', '=', true)
          .executeTakeFirst();
        makeThisDefault = body.is_default || current === undefined;
      } else {
        const pkg = await packageLimit(trx, tenantId, 'branches');
        if (pkg.limit !== null) {
          const count = await trx
            .selectFrom('warehouses')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('tenant_id', '=', tenantId)
            .where('kind', '=', 'branch')
            .executeTakeFirstOrThrow();
          if (Number(count.n) >= pkg.limit) {
            throw refusePlace('BRANCH_LIMIT', { package: pkg.name, limit: pkg.limit });
          }
        }
      }
      await trx
        .insertInto('warehouses')
        .values({
          id,
          tenant_id: tenantId,
          kind,
          ...body,
          ...('is_default' in body ? { is_default: false } : {}),
        })
        .execute();
      const previousDefault = makeThisDefault ? await makeDefault(trx, tenantId, id) : null;
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: `${kind}.created`,
        subjectType: 'warehouse',
        subjectId: id,
        detail: {
          ...body,
          kind,
          ...(makeThisDefault ? { is_default: true, previous_default: previousDefault } : {}),
        },
      });
    });
  } catch (error) {
    throw placeRefusal(error, body.code);
  }
  return placeAnswer(deps.db, tenantId, kind, id);
}

/** Edits a place (marking a warehouse default clears the old default; the default cannot be unset). */
export async function changePlace(
  deps: Deps,
  actor: Actor,
  input: { kind: PlaceKind; id: string; changes: WarehouseChanges | BranchChanges },
): Promise<Place> {
  const { tenantId } = actor;
  const { is_default, ...changes } = input.changes as WarehouseChanges & BranchChanges;
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (is_default !== undefined) await lockTenant(trx, tenantId);
      const before = await lockPlace(trx, tenantId, input.kind, input.id);
      if (is_default === false && before.is_default) throw refusePlace('DEFAULT_REQUIRED');
      if (Object.keys(changes).length > 0) {
        await trx
          .updateTable('warehouses')
          .set({ ...changes, updated_at: new Date() })
          .where('id', '=', before.id)
          .execute();
      }
      const previousDefault =
        is_default === true && !before.is_default ? await makeDefault(trx, tenantId, before.id) : undefined;
      await logActivity(trx, {
        tenantId,
        userId: actor.userId,
        action: `${input.kind}.updated`,
        subjectType: 'warehouse',
        subjectId: before.id,
        detail: {
          changes,
          ...(previousDefault === undefined ? {} : { is_default: true, previous_default: previousDefault }),
        },
      });
    });
  } catch (error) {
    throw placeRefusal(error, changes.code);
  }
  return placeAnswer(deps.db, tenantId, input.kind, input.id);
}

/** Deletes a place whose master codes all have 0 stock, with its racks and rack locations. */
export async function deletePlace(
  deps: Deps,
  actor: Actor,
  input: { kind: PlaceKind; id: string },
): Promise<string> {
  const { tenantId } = actor;
  return deps.db.transaction().execute(async (trx) => {
    await lockTenant(trx, tenantId);
    const row = await lockPlace(trx, tenantId, input.kind, input.id);
    if (row.is_default) {
      const others = await trx
        .selectFrom('warehouses')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('tenant_id', '=', tenantId)
        .where('kind', '=', 'warehouse')
        .where('id', '<>', row.id)
        .executeTakeFirstOrThrow();
      if (Number(others.n) > 0) throw refusePlace('DEFAULT_DELETE');
    }
    await requireNoStockIn(trx, tenantId, row.id);
    await trx.deleteFrom('warehouses').where('id', '=', row.id).execute();
    await trx
      .insertInto('removed_places')
      .values({ id: row.id, tenant_id: tenantId, kind: input.kind, code: row.code, name: row.name })
      .execute();
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: `${input.kind}.deleted`,
      subjectType: 'warehouse',
      subjectId: row.id,
      detail: { code: row.code, name: row.name },
    });
    return row.id;
  });
}

/** Makes a warehouse the default (the old default is cleared in the same change). */
export async function makeDefaultWarehouse(deps: Deps, actor: Actor, input: { id: string }): Promise<Place> {
  const { tenantId } = actor;
  await deps.db.transaction().execute(async (trx) => {
    await lockTenant(trx, tenantId);
    const row = await lockPlace(trx, tenantId, 'warehouse', input.id);
    if (row.is_default) return;
    const previous = await makeDefault(trx, tenantId, row.id);
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'warehouse.default_set',
      subjectType: 'warehouse',
      subjectId: row.id,
      detail: { previous_default: previous },
    });
  });
  return placeAnswer(deps.db, tenantId, 'warehouse', input.id);
}

export const MAIN_BRANCH = { code: 'HQ', name: 'Main branch' } as const;

/**
 * A new account's places: its default warehouse and a branch, so stock, purchases and transfers work from the first
 * minute (the warehouses page promises that one warehouse is always the default).
 */
export async function openStartingPlaces(db: Kysely<Database>, actor: Actor): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const places = [
      { kind: 'warehouse', ...MAIN_WAREHOUSE, is_default: true },
      { kind: 'branch', ...MAIN_BRANCH, is_default: false },
    ] as const;
    for (const place of places) {
      const id = randomUUID();
      await trx
        .insertInto('warehouses')
        .values({ id, tenant_id: actor.tenantId, ...place })
        .execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: `${place.kind}.created`,
        subjectType: 'warehouse',
        subjectId: id,
        detail: { ...place, automatic: true },
      });
    }
  });
}
