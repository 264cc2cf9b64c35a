import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
import type { PermissionKey } from '@domain/access/permissions';
import { InventoryCode } from '@domain/inventory/codes';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import {
  IdParams,
  type InventoryDeps,
  iso,
  isUuid,
  lockTenant,
  logActivity,
  packageLimit,
  phone,
  requireAny,
  requiredText,
  type StockOf,
  text,
  violation,
} from './common';

/**
 * Warehouses and branches (spec §3 "Warehouse and rack"). Both are places that hold stock, so they share one table
 * told apart by `kind` — a stock stream names a place by one id, whatever its kind — and each has its own routes with
 * its own fields: a warehouse has an address, a default flag and the POS receipt flags; a branch has a location.
 * Codes are unique per account across both kinds.
 *
 * Exactly one warehouse is the default while any exists: the first one created becomes it, making another the
 * default clears the old one in the same transaction, and the default can be neither unset nor deleted while other
 * warehouses exist. The package's `branches` limit caps the branches. A place is deleted only when every master code
 * in it has 0 stock (spec §5), taking its racks and rack locations with it.
 */

export const PLACE_KINDS = ['warehouse', 'branch'] as const;
export type PlaceKind = (typeof PLACE_KINDS)[number];
export const PLACE_CODE_MAX = 32;
export const PLACE_NAME_MAX = 100;

const flag = z.boolean({ error: invalid(400, 'inventory.warehouse.flag_invalid') });

const common = {
  code: requiredText(PLACE_CODE_MAX, InventoryCode.codeRequired, 'inventory.warehouse.code_required'),
  name: requiredText(PLACE_NAME_MAX, InventoryCode.nameRequired, 'inventory.warehouse.name_required'),
  manager: text(PLACE_NAME_MAX),
  phone,
};
const warehouseFields = {
  ...common,
  address: text(500),
  is_default: flag,
  use_address_on_receipt: flag,
  use_phone_on_receipt: flag,
};
const branchFields = { ...common, location: text(500) };

export const NewWarehouse = z.strictObject({
  ...warehouseFields,
  manager: warehouseFields.manager.default(''),
  phone: warehouseFields.phone.default(''),
  address: warehouseFields.address.default(''),
  is_default: flag.default(false),
  use_address_on_receipt: flag.default(false),
  use_phone_on_receipt: flag.default(false),
});
export const NewBranch = z.strictObject({
  ...branchFields,
  manager: branchFields.manager.default(''),
  phone: branchFields.phone.default(''),
  location: branchFields.location.default(''),
});

const nothingToChange = invalid(InventoryCode.nothingToChange, 'inventory.nothing_to_change');
const nonEmpty = (changes: object) => Object.keys(changes).length > 0;
export const WarehouseChanges = z.strictObject(warehouseFields).partial().refine(nonEmpty, nothingToChange);
export const BranchChanges = z.strictObject(branchFields).partial().refine(nonEmpty, nothingToChange);

export const Place = z.object({
  id: z.string(),
  kind: z.enum(PLACE_KINDS),
  code: z.string(),
  name: z.string(),
  manager: z.string(),
  phone: z.string(),
  /** Warehouses only ('' for a branch). */
  address: z.string(),
  /** Branches only ('' for a warehouse). */
  location: z.string(),
  is_default: z.boolean(),
  use_address_on_receipt: z.boolean(),
  use_phone_on_receipt: z.boolean(),
  rack_count: z.number().int(),
  master_code_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Place = z.infer<typeof Place>;

/** The pickers of the rack, location, stock and movement screens read the places too. */
const readers: readonly PermissionKey[] = [
  'inventory-warehouse',
  'inventory-rack',
  'inventory-master-code',
  'inventory-stock-adjustment',
  'inventory-stock-movement',
  'inventory-list-export',
  'inventory-manage-sync',
];
const access = { access: { permission: 'inventory-warehouse' } } as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

type Db = Kysely<Database> | Transaction<Database>;

const selectPlaces = (db: Db, tenantId: string, kind: PlaceKind) =>
  db
    .selectFrom('warehouses as w')
    .selectAll('w')
    .select([
      sql<number>`(SELECT count(*)::int FROM racks r WHERE r.warehouse_id = w.id)`.as('rack_count'),
      sql<number>`(SELECT count(*)::int FROM master_code_locations l WHERE l.warehouse_id = w.id)`.as(
        'master_code_count',
      ),
    ])
    .where('w.tenant_id', '=', tenantId)
    .where('w.kind', '=', kind);

type PlaceRow = Awaited<ReturnType<ReturnType<typeof selectPlaces>['executeTakeFirstOrThrow']>>;

const place = (row: PlaceRow): Place => ({
  id: row.id,
  kind: row.kind,
  code: row.code,
  name: row.name,
  manager: row.manager,
  phone: row.phone,
  address: row.address,
  location: row.location,
  is_default: row.is_default,
  use_address_on_receipt: row.use_address_on_receipt,
  use_phone_on_receipt: row.use_phone_on_receipt,
  rack_count: row.rack_count,
  master_code_count: row.master_code_count,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

async function findPlace(db: Db, tenantId: string, kind: PlaceKind, id: string): Promise<Place> {
  const row = isUuid(id)
    ? await selectPlaces(db, tenantId, kind).where('w.id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  return place(row);
}

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
  if (!row) throw notFound();
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
  if (violation(error, '23505', 'warehouses_code_idx')) {
    return new ApiError(409, InventoryCode.warehouseCodeTaken, 'inventory.warehouse.code_taken', {
      code: code ?? '',
    });
  }
  return error;
}

/**
 * Refuses while any master code in the place has stock (spec §5: only items with quantity 0 can be removed from a
 * branch). Stock the seller holds at a place shows in its rack locations.
 */
export async function requireNoStockIn(
  trx: Db,
  stockOf: StockOf,
  tenantId: string,
  warehouseId: string,
): Promise<void> {
  const located = await trx
    .selectFrom('master_code_locations as l')
    .innerJoin('master_codes as m', 'm.id', 'l.master_code_id')
    .select(['m.id', 'm.code'])
    .where('l.tenant_id', '=', tenantId)
    .where('l.warehouse_id', '=', warehouseId)
    .orderBy('m.code')
    .execute();
  for (const masterCode of located) {
    if ((await stockOf(tenantId, masterCode.id, warehouseId)) !== 0) {
      throw new ApiError(409, InventoryCode.stockRemains, 'inventory.warehouse.stock_remains', {
        code: masterCode.code,
      });
    }
  }
}

const noStock: StockOf = async () => 0;

export const warehouseRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (
  app,
  { db, stockOf = noStock },
) => {
  for (const kind of PLACE_KINDS) {
    const path = `/api/inventory/${kind}`;
    const isWarehouse = kind === 'warehouse';

    app.get(
      path,
      {
        config: { access: 'seller' },
        preHandler: requireAny(readers),
        schema: {
          tags,
          summary: isWarehouse
            ? "The account's warehouses, the default first, then by name"
            : "The account's branches, by name",
          response: { 200: Ok(z.array(Place)), ...refusals },
        },
      },
      async (request) => {
        const rows = await selectPlaces(db, seller(request).tenantId, kind)
          .orderBy('w.is_default', 'desc')
          .orderBy(sql`lower(w.name)`)
          .orderBy('w.id')
          .execute();
        return ok(request, rows.map(place));
      },
    );

    app.get(
      `${path}/:id`,
      {
        config: { access: 'seller' },
        preHandler: requireAny(readers),
        schema: {
          tags,
          summary: `One ${kind}`,
          params: IdParams,
          response: { 200: Ok(Place), ...refusals },
        },
      },
      async (request) => ok(request, await findPlace(db, seller(request).tenantId, kind, request.params.id)),
    );

    app.post(
      path,
      {
        config: access,
        schema: {
          tags,
          summary: isWarehouse
            ? 'Add a warehouse (the first one, or one marked default, becomes the default)'
            : "Add a branch (within the package's branch limit: 403, code 487, past it)",
          body: isWarehouse ? NewWarehouse : NewBranch,
          response: { 200: Ok(Place), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const { tenantId } = session;
        const body = request.body as z.infer<typeof NewWarehouse> | z.infer<typeof NewBranch>;
        const id = randomUUID();
        try {
          await db.transaction().execute(async (trx) => {
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
                  throw new ApiError(403, InventoryCode.branchLimit, 'inventory.branch.limit_reached', {
                    package: pkg.name,
                    limit: pkg.limit,
                  });
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
              userId: session.userId,
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
        return ok(request, await findPlace(db, tenantId, kind, id), `inventory.${kind}.created`);
      },
    );

    app.put(
      `${path}/:id`,
      {
        config: access,
        schema: {
          tags,
          summary: isWarehouse
            ? 'Edit a warehouse (marking it default clears the old default; the default cannot be unset)'
            : 'Edit a branch',
          params: IdParams,
          body: isWarehouse ? WarehouseChanges : BranchChanges,
          response: { 200: Ok(Place), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const { tenantId } = session;
        const { is_default, ...changes } = request.body as z.infer<typeof WarehouseChanges> &
          z.infer<typeof BranchChanges>;
        try {
          await db.transaction().execute(async (trx) => {
            if (is_default !== undefined) await lockTenant(trx, tenantId);
            const before = await lockPlace(trx, tenantId, kind, request.params.id);
            if (is_default === false && before.is_default) {
              throw new ApiError(409, InventoryCode.defaultRequired, 'inventory.warehouse.default_required');
            }
            if (Object.keys(changes).length > 0) {
              await trx
                .updateTable('warehouses')
                .set({ ...changes, updated_at: new Date() })
                .where('id', '=', before.id)
                .execute();
            }
            const previousDefault =
              is_default === true && !before.is_default
                ? await makeDefault(trx, tenantId, before.id)
                : undefined;
            await logActivity(trx, {
              tenantId,
              userId: session.userId,
              action: `${kind}.updated`,
              subjectType: 'warehouse',
              subjectId: before.id,
              detail: {
                changes,
                ...(previousDefault === undefined
                  ? {}
                  : { is_default: true, previous_default: previousDefault }),
              },
            });
          });
        } catch (error) {
          throw placeRefusal(error, changes.code);
        }
        return ok(
          request,
          await findPlace(db, tenantId, kind, request.params.id),
          `inventory.${kind}.updated`,
        );
      },
    );

    app.delete(
      `${path}/:id`,
      {
        config: access,
        schema: {
          tags,
          summary: `Delete a ${kind} whose master codes all have 0 stock, with its racks and rack locations`,
          params: IdParams,
          response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const { tenantId } = session;
        const id = await db.transaction().execute(async (trx) => {
          await lockTenant(trx, tenantId);
          const row = await lockPlace(trx, tenantId, kind, request.params.id);
          if (row.is_default) {
            const others = await trx
              .selectFrom('warehouses')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('tenant_id', '=', tenantId)
              .where('kind', '=', 'warehouse')
              .where('id', '<>', row.id)
              .executeTakeFirstOrThrow();
            if (Number(others.n) > 0) {
              throw new ApiError(409, InventoryCode.defaultRequired, 'inventory.warehouse.default_delete');
            }
          }
          await requireNoStockIn(trx, stockOf, tenantId, row.id);
          await trx.deleteFrom('warehouses').where('id', '=', row.id).execute();
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: `${kind}.deleted`,
            subjectType: 'warehouse',
            subjectId: row.id,
            detail: { code: row.code, name: row.name },
          });
          return row.id;
        });
        return ok(request, { id }, `inventory.${kind}.deleted`);
      },
    );
  }

  app.post(
    '/api/inventory/warehouse/:id/default',
    {
      config: access,
      schema: {
        tags,
        summary: 'Make a warehouse the default (the old default is cleared in the same change)',
        params: IdParams,
        response: { 200: Ok(Place), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      await db.transaction().execute(async (trx) => {
        await lockTenant(trx, tenantId);
        const row = await lockPlace(trx, tenantId, 'warehouse', request.params.id);
        if (row.is_default) return;
        const previous = await makeDefault(trx, tenantId, row.id);
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'warehouse.default_set',
          subjectType: 'warehouse',
          subjectId: row.id,
          detail: { previous_default: previous },
        });
      });
      return ok(
        request,
        await findPlace(db, tenantId, 'warehouse', request.params.id),
        'inventory.warehouse.default_set',
      );
    },
  );
};
