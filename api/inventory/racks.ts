import { randomUUID } from 'node:crypto';
import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { ApiError, invalid, notFound } from '@api/errors';
import { InventoryCode } from '@domain/inventory/codes';
import type { Database } from '@infra/db';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import {
  IdParams,
  type InventoryDeps,
  iso,
  isUuid,
  logActivity,
  referenceId,
  requiredText,
  type StockOf,
  text,
  violation,
} from './common';
import { MASTER_CODE_STATUSES, MasterCodeLocation, masterCodeLocations } from './master-code-data';

/**
 * Racks (spec §3: name, status occupied or available, note) inside a warehouse or branch, and a master code's rack
 * location per place (spec §3 "Master code in warehouse": rack location and note). A rack a master code still sits on
 * is not deleted. A master code leaves a place only with 0 stock there: "Only 0 quantity able to be removed from a
 * branch" (spec §5, §8). A combo has no stock of its own, so it has no rack location either.
 */

export const RACK_STATUSES = ['occupied', 'available'] as const;
export const RACK_NAME_MAX = 64;

const statusInvalid = invalid(InventoryCode.statusInvalid, 'inventory.rack.status_invalid');
const rackStatus = z.enum(RACK_STATUSES, { error: statusInvalid });

export const NewRack = z.strictObject({
  warehouse_id: referenceId,
  name: requiredText(RACK_NAME_MAX, InventoryCode.nameRequired, 'inventory.rack.name_required'),
  status: rackStatus.default('available'),
  note: text(500).default(''),
});
export const RackChanges = z
  .strictObject({
    name: requiredText(RACK_NAME_MAX, InventoryCode.nameRequired, 'inventory.rack.name_required'),
    status: rackStatus,
    note: text(500),
  })
  .partial()
  .refine(
    (changes) => Object.keys(changes).length > 0,
    invalid(InventoryCode.nothingToChange, 'inventory.nothing_to_change'),
  );

export const LocationBody = z.strictObject({
  warehouse_id: referenceId,
  /** null: in the place, on no particular rack. */
  rack_id: referenceId.nullable().default(null),
  note: text(500).default(''),
});

const PlaceRef = z.object({
  id: z.string(),
  kind: z.enum(['warehouse', 'branch']),
  code: z.string(),
  name: z.string(),
});

export const Rack = z.object({
  id: z.string(),
  warehouse: PlaceRef,
  name: z.string(),
  status: z.enum(RACK_STATUSES),
  note: z.string(),
  master_code_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Rack = z.infer<typeof Rack>;

export const RackLocationRow = z.object({
  master_code: z.object({
    id: z.string(),
    code: z.string(),
    name: z.string(),
    status: z.enum(MASTER_CODE_STATUSES),
  }),
  warehouse: PlaceRef,
  rack: z.object({ id: z.string(), name: z.string(), status: z.enum(RACK_STATUSES) }).nullable(),
  note: z.string(),
  updated_at: z.string(),
});

const WarehouseScope = { warehouse_id: z.string().max(64).optional() };

export const RackGridQuery = gridQuery(['name', 'status', 'warehouse', 'updated_at'] as const, {
  name: TextFilter,
  note: TextFilter,
  warehouse: TextFilter,
  status: setFilter(RACK_STATUSES),
}).extend(WarehouseScope);
type RackGridQuery = z.infer<typeof RackGridQuery>;

export const RackLocationGridQuery = gridQuery(['code', 'name', 'warehouse', 'rack', 'updated_at'] as const, {
  code: TextFilter,
  name: TextFilter,
  warehouse: TextFilter,
  rack: TextFilter,
  note: TextFilter,
}).extend(WarehouseScope);
type RackLocationGridQuery = z.infer<typeof RackLocationGridQuery>;

const access = { access: { permission: 'inventory-rack' } } as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

type Db = Kysely<Database> | Transaction<Database>;

const warehouseMissing = () =>
  new ApiError(400, InventoryCode.warehouseNotFound, 'inventory.rack.warehouse_not_found');
const rackMissing = () => new ApiError(400, InventoryCode.rackNotFound, 'inventory.rack.rack_not_found');

async function requireWarehouse(db: Db, tenantId: string, id: string) {
  const row = isUuid(id)
    ? await db
        .selectFrom('warehouses')
        .select(['id', 'kind', 'code', 'name'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw warehouseMissing();
  return row;
}

// ---- racks ----

const selectRacks = (db: Db, tenantId: string) =>
  db
    .selectFrom('racks as r')
    .innerJoin('warehouses as w', 'w.id', 'r.warehouse_id')
    .select([
      'r.id',
      'r.name',
      'r.status',
      'r.note',
      'r.created_at',
      'r.updated_at',
      'w.id as warehouse_id',
      'w.kind as warehouse_kind',
      'w.code as warehouse_code',
      'w.name as warehouse_name',
      sql<number>`(SELECT count(*)::int FROM master_code_locations l WHERE l.rack_id = r.id)`.as(
        'master_code_count',
      ),
    ])
    .where('r.tenant_id', '=', tenantId);

type RackRow = Awaited<ReturnType<ReturnType<typeof selectRacks>['executeTakeFirstOrThrow']>>;

const rack = (row: RackRow): Rack => ({
  id: row.id,
  warehouse: {
    id: row.warehouse_id,
    kind: row.warehouse_kind,
    code: row.warehouse_code,
    name: row.warehouse_name,
  },
  name: row.name,
  status: row.status,
  note: row.note,
  master_code_count: row.master_code_count,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

async function findRack(db: Db, tenantId: string, id: string): Promise<Rack> {
  const row = isUuid(id)
    ? await selectRacks(db, tenantId).where('r.id', '=', id).executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  return rack(row);
}

/** A place id in the query that is not a uuid names no place: the list is empty. */
const scopeTo = (column: RawBuilder<string>, warehouseId: string | undefined): RawBuilder<SqlBool>[] =>
  warehouseId === undefined
    ? []
    : [isUuid(warehouseId) ? sql<SqlBool>`${column} = ${warehouseId}` : sql<SqlBool>`false`];

async function listRacks(db: Kysely<Database>, tenantId: string, query: RackGridQuery) {
  const { filterModel } = query;
  const where = scopeTo(sql`r.warehouse_id`, query.warehouse_id);
  if (filterModel.name) where.push(textWhere(sql`r.name`, filterModel.name));
  if (filterModel.note) where.push(textWhere(sql`r.note`, filterModel.note));
  if (filterModel.warehouse) where.push(textWhere(sql`w.name`, filterModel.warehouse));
  if (filterModel.status) where.push(setWhere(sql`r.status`, filterModel.status.values));
  const search = query.search?.trim();
  if (search) where.push(searchWhere([sql`r.name`, sql`r.note`, sql`w.name`, sql`w.code`], search));
  const filtered = selectRacks(db, tenantId).where(allOf(where));
  let page = filtered;
  for (const term of sortTerms(query.sortModel, {
    name: sql`lower(r.name)`,
    status: sql`r.status`,
    warehouse: sql`lower(w.name)`,
    updated_at: sql`r.updated_at`,
  }))
    page = page.orderBy(term);
  if (query.sortModel.length === 0) page = page.orderBy(sql`lower(w.name)`).orderBy(sql`lower(r.name)`);
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page.orderBy('r.id').limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(rack), lastRow: Number(total.n) };
}

// ---- rack locations ----

async function listLocations(db: Kysely<Database>, tenantId: string, query: RackLocationGridQuery) {
  const { filterModel } = query;
  const where = scopeTo(sql`l.warehouse_id`, query.warehouse_id);
  if (filterModel.code) where.push(textWhere(sql`m.code`, filterModel.code));
  if (filterModel.name) where.push(textWhere(sql`m.name`, filterModel.name));
  if (filterModel.warehouse) where.push(textWhere(sql`w.name`, filterModel.warehouse));
  if (filterModel.rack) where.push(textWhere(sql`coalesce(r.name, '')`, filterModel.rack));
  if (filterModel.note) where.push(textWhere(sql`l.note`, filterModel.note));
  const search = query.search?.trim();
  if (search)
    where.push(searchWhere([sql`m.code`, sql`m.name`, sql`coalesce(r.name, '')`, sql`l.note`], search));
  const filtered = db
    .selectFrom('master_code_locations as l')
    .innerJoin('master_codes as m', 'm.id', 'l.master_code_id')
    .innerJoin('warehouses as w', 'w.id', 'l.warehouse_id')
    .leftJoin('racks as r', 'r.id', 'l.rack_id')
    .select([
      'm.id as master_code_id',
      'm.code',
      'm.name',
      'm.status',
      'w.id as warehouse_id',
      'w.kind as warehouse_kind',
      'w.code as warehouse_code',
      'w.name as warehouse_name',
      'r.id as rack_id',
      'r.name as rack_name',
      'r.status as rack_status',
      'l.note',
      'l.updated_at',
    ])
    .where('l.tenant_id', '=', tenantId)
    .where(allOf(where));
  let page = filtered;
  for (const term of sortTerms(query.sortModel, {
    code: sql`lower(m.code)`,
    name: sql`lower(m.name)`,
    warehouse: sql`lower(w.name)`,
    rack: sql`lower(r.name)`,
    updated_at: sql`l.updated_at`,
  }))
    page = page.orderBy(term);
  if (query.sortModel.length === 0) page = page.orderBy(sql`lower(w.name)`).orderBy(sql`lower(m.code)`);
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    page.orderBy('l.master_code_id').orderBy('l.warehouse_id').limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: rows.map((row) => ({
      master_code: { id: row.master_code_id, code: row.code, name: row.name, status: row.status },
      warehouse: {
        id: row.warehouse_id,
        kind: row.warehouse_kind,
        code: row.warehouse_code,
        name: row.warehouse_name,
      },
      rack:
        row.rack_id && row.rack_name !== null && row.rack_status !== null
          ? { id: row.rack_id, name: row.rack_name, status: row.rack_status }
          : null,
      note: row.note,
      updated_at: iso(row.updated_at),
    })),
    lastRow: Number(total.n),
  };
}

/** The master code of this tenant, locked for a location change; another tenant's is missing. */
async function lockMasterCode(trx: Transaction<Database>, tenantId: string, id: string) {
  const row = isUuid(id)
    ? await trx
        .selectFrom('master_codes')
        .select(['id', 'code', 'type'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .forUpdate()
        .executeTakeFirst()
    : undefined;
  if (!row) throw notFound();
  return row;
}

const noStock: StockOf = async () => 0;

export const rackRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db, stockOf = noStock }) => {
  const rackRefusal = (error: unknown, name: string | undefined) =>
    violation(error, '23505', 'racks_name_idx')
      ? new ApiError(409, InventoryCode.nameTaken, 'inventory.rack.name_taken', { name: name ?? '' })
      : error;

  const lockRack = async (trx: Transaction<Database>, tenantId: string, id: string) => {
    const row = isUuid(id)
      ? await trx
          .selectFrom('racks')
          .select(['id', 'warehouse_id', 'name', 'status', 'note'])
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound();
    return row;
  };

  app.get(
    '/api/inventory/rack',
    {
      config: access,
      schema: {
        tags,
        summary: "The account's racks (of one place with warehouse_id) for ag-grid's Infinite Row Model",
        querystring: RackGridQuery,
        response: { 200: Ok(GridPage(Rack)), ...refusals },
      },
    },
    async (request) => ok(request, await listRacks(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/rack/:id',
    {
      config: access,
      schema: { tags, summary: 'One rack', params: IdParams, response: { 200: Ok(Rack), ...refusals } },
    },
    async (request) => ok(request, await findRack(db, seller(request).tenantId, request.params.id)),
  );

  app.post(
    '/api/inventory/rack',
    {
      config: access,
      schema: {
        tags,
        summary: 'Add a rack to a warehouse or branch (names are unique within the place)',
        body: NewRack,
        response: { 200: Ok(Rack), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const body = request.body;
      const id = randomUUID();
      try {
        await db.transaction().execute(async (trx) => {
          const warehouse = await requireWarehouse(trx, tenantId, body.warehouse_id);
          await trx
            .insertInto('racks')
            .values({ ...body, id, tenant_id: tenantId, warehouse_id: warehouse.id })
            .execute();
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: 'rack.created',
            subjectType: 'rack',
            subjectId: id,
            detail: { ...body, warehouse_id: warehouse.id },
          });
        });
      } catch (error) {
        // The place deleted between the check and the write.
        if (violation(error, '23503')) throw warehouseMissing();
        throw rackRefusal(error, body.name);
      }
      return ok(request, await findRack(db, tenantId, id), 'inventory.rack.created');
    },
  );

  app.put(
    '/api/inventory/rack/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Rename a rack, or change its status or note',
        params: IdParams,
        body: RackChanges,
        response: { 200: Ok(Rack), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      try {
        await db.transaction().execute(async (trx) => {
          const before = await lockRack(trx, tenantId, request.params.id);
          await trx
            .updateTable('racks')
            .set({ ...request.body, updated_at: new Date() })
            .where('id', '=', before.id)
            .execute();
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: 'rack.updated',
            subjectType: 'rack',
            subjectId: before.id,
            detail: {
              from: { name: before.name, status: before.status, note: before.note },
              changes: request.body,
            },
          });
        });
      } catch (error) {
        throw rackRefusal(error, request.body.name);
      }
      return ok(request, await findRack(db, tenantId, request.params.id), 'inventory.rack.updated');
    },
  );

  app.delete(
    '/api/inventory/rack/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a rack no master code sits on',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const id = await db.transaction().execute(async (trx) => {
        const row = await lockRack(trx, tenantId, request.params.id);
        const used = await trx
          .selectFrom('master_code_locations')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('rack_id', '=', row.id)
          .executeTakeFirstOrThrow();
        if (Number(used.n) > 0) {
          throw new ApiError(409, InventoryCode.inUse, 'inventory.rack.in_use', { count: Number(used.n) });
        }
        await trx.deleteFrom('racks').where('id', '=', row.id).execute();
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'rack.deleted',
          subjectType: 'rack',
          subjectId: row.id,
          detail: { name: row.name, warehouse_id: row.warehouse_id },
        });
        return row.id;
      });
      return ok(request, { id }, 'inventory.rack.deleted');
    },
  );

  app.get(
    '/api/inventory/rack-location',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Master codes' rack locations (of one place with warehouse_id) for ag-grid's Infinite Row Model",
        querystring: RackLocationGridQuery,
        response: { 200: Ok(GridPage(RackLocationRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listLocations(db, seller(request).tenantId, request.query)),
  );

  app.put(
    '/api/inventory/master-code/:id/location',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Put a master code in a warehouse or branch, on a rack of that place or none; answers its locations',
        params: IdParams,
        body: LocationBody,
        response: { 200: Ok(z.array(MasterCodeLocation)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const body = request.body;
      const masterCodeId = await db.transaction().execute(async (trx) => {
        const masterCode = await lockMasterCode(trx, tenantId, request.params.id);
        if (masterCode.type === 'combo') {
          throw new ApiError(409, InventoryCode.comboHasNoStock, 'inventory.combo.no_location');
        }
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
          if (!found) throw rackMissing();
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
          userId: session.userId,
          action: 'master_code_location.set',
          subjectType: 'master_code_location',
          subjectId: masterCode.id,
          detail: { warehouse_id: warehouse.id, rack_id: rackId, note: body.note },
        });
        return masterCode.id;
      });
      return ok(request, await masterCodeLocations(db, tenantId, masterCodeId), 'inventory.location.saved');
    },
  );

  app.delete(
    '/api/inventory/master-code/:id/location/:warehouseId',
    {
      config: access,
      schema: {
        tags,
        summary: 'Remove a master code from a warehouse or branch: only with 0 quantity there',
        params: z.strictObject({ id: z.string().max(64), warehouseId: z.string().max(64) }),
        response: { 200: Ok(z.array(MasterCodeLocation)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const { warehouseId } = request.params;
      const masterCodeId = await db.transaction().execute(async (trx) => {
        const masterCode = await lockMasterCode(trx, tenantId, request.params.id);
        const location = isUuid(warehouseId)
          ? await trx
              .selectFrom('master_code_locations')
              .select(['warehouse_id', 'rack_id', 'note'])
              .where('tenant_id', '=', tenantId)
              .where('master_code_id', '=', masterCode.id)
              .where('warehouse_id', '=', warehouseId)
              .executeTakeFirst()
          : undefined;
        if (!location) throw notFound();
        const onHand = await stockOf(tenantId, masterCode.id, location.warehouse_id);
        if (onHand !== 0) {
          throw new ApiError(409, InventoryCode.stockRemains, 'inventory.location.stock_remains');
        }
        await trx
          .deleteFrom('master_code_locations')
          .where('master_code_id', '=', masterCode.id)
          .where('warehouse_id', '=', location.warehouse_id)
          .execute();
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'master_code_location.removed',
          subjectType: 'master_code_location',
          subjectId: masterCode.id,
          detail: { ...location },
        });
        return masterCode.id;
      });
      return ok(request, await masterCodeLocations(db, tenantId, masterCodeId), 'inventory.location.removed');
    },
  );
};
