import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
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
  lockFor,
  logActivity,
  referenceId,
  requireAny,
  requiredText,
  violation,
} from './common';

/**
 * The inventory's categories (a tree per account), brands and units: the pickers of the master code editor. Names
 * are unique per account whatever their case, so a name in an upload names one row. A row a master code still uses
 * is not deleted (the seller is told how many use it), nor a category with sub-categories.
 */

export const CATALOGUE_NAME_MAX = 100;

const access = { access: { permission: 'inventory-categories' } } as const;
/** Reading the pickers: the master code and combo editors need them too. */
const readers = ['inventory-categories', 'inventory-master-code', 'inventory-combo-list'] as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

// ---- shapes ----

export interface InventoryCategoryNode {
  id: string;
  name: string;
  parent_id: string | null;
  master_code_count: number;
  children: InventoryCategoryNode[];
}
export const InventoryCategoryNode: z.ZodType<InventoryCategoryNode> = z
  .object({
    id: z.string(),
    name: z.string(),
    parent_id: z.string().nullable(),
    master_code_count: z.number().int(),
    get children() {
      return z.array(InventoryCategoryNode);
    },
  })
  .meta({ id: 'InventoryCategoryNode' });

export const InventoryCategory = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CatalogueEntry = z.object({
  id: z.string(),
  name: z.string(),
  master_code_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntry>;

const nameOf = (kind: 'category' | 'brand' | 'unit') =>
  requiredText(CATALOGUE_NAME_MAX, InventoryCode.nameRequired, `inventory.${kind}.name_required`);

export const NewCategory = z.strictObject({
  name: nameOf('category'),
  parent_id: referenceId.nullable().optional(),
});
export const CategoryChanges = NewCategory.partial().refine(
  (changes) => changes.name !== undefined || changes.parent_id !== undefined,
  invalid(InventoryCode.nothingToChange, 'inventory.nothing_to_change'),
);
const BrandBody = z.strictObject({ name: nameOf('brand') });
const UnitBody = z.strictObject({ name: nameOf('unit') });

// ---- categories ----

type Db = Kysely<Database> | Transaction<Database>;

async function findCategory(db: Db, tenantId: string, id: string) {
  return isUuid(id)
    ? db
        .selectFrom('inventory_categories')
        .select(['id', 'name', 'parent_id', 'created_at', 'updated_at'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
    : undefined;
}

/** The category and every category under it. */
async function subtreeIds(db: Db, tenantId: string, id: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE subtree AS (
      SELECT id FROM inventory_categories WHERE tenant_id = ${tenantId} AND id = ${id}
      UNION ALL
      SELECT c.id FROM inventory_categories c JOIN subtree s ON c.parent_id = s.id
       WHERE c.tenant_id = ${tenantId}
    )
    SELECT id FROM subtree`.execute(db);
  return rows.map((row) => row.id);
}

const nameTaken = (kind: 'category' | 'brand' | 'unit', name: string) =>
  new ApiError(409, InventoryCode.nameTaken, `inventory.${kind}.name_taken`, { name });
const inUse = (kind: 'category' | 'brand' | 'unit', count: number) =>
  new ApiError(409, InventoryCode.inUse, `inventory.${kind}.in_use`, { count });

function categoryRefusal(error: unknown, name: string | undefined): unknown {
  if (violation(error, '23505', 'inventory_categories_name_idx')) return nameTaken('category', name ?? '');
  return error;
}

const categoryAnswer = (row: NonNullable<Awaited<ReturnType<typeof findCategory>>>) => ({
  id: row.id,
  name: row.name,
  parent_id: row.parent_id,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

function buildTree(
  rows: { id: string; name: string; parent_id: string | null; master_code_count: number }[],
): InventoryCategoryNode[] {
  const nodes = new Map<string, InventoryCategoryNode>(rows.map((row) => [row.id, { ...row, children: [] }]));
  const roots: InventoryCategoryNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const masterCodeCount = (column: 'category_id' | 'brand_id' | 'unit_id', alias: 'c' | 'x') =>
  sql<number>`(SELECT count(*)::int FROM master_codes m WHERE m.${sql.ref(column)} = ${sql.ref(`${alias}.id`)})`;

async function categoryRoutes(
  app: Parameters<FastifyPluginAsyncZod<InventoryDeps>>[0],
  db: Kysely<Database>,
) {
  const lockTree = (trx: Transaction<Database>, tenantId: string) =>
    lockFor(trx, 'inventory_categories', tenantId);
  const requireParent = async (trx: Db, tenantId: string, parentId: string) => {
    const parent = await findCategory(trx, tenantId, parentId);
    if (!parent)
      throw new ApiError(400, InventoryCode.categoryNotFound, 'inventory.category.parent_not_found');
    return parent;
  };

  app.get(
    '/api/inventory/category',
    {
      config: { access: 'seller' },
      preHandler: requireAny(readers),
      schema: {
        tags,
        summary: "The account's inventory category tree, sorted by name",
        response: { 200: Ok(z.array(InventoryCategoryNode)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await db
        .selectFrom('inventory_categories as c')
        .select([
          'c.id',
          'c.name',
          'c.parent_id',
          masterCodeCount('category_id', 'c').as('master_code_count'),
        ])
        .where('c.tenant_id', '=', tenantId)
        .orderBy(sql`lower(c.name)`)
        .orderBy('c.id')
        .execute();
      return ok(request, buildTree(rows));
    },
  );

  app.post(
    '/api/inventory/category',
    {
      config: access,
      schema: {
        tags,
        summary: 'Add a category at the root or under a parent',
        body: NewCategory,
        response: { 200: Ok(InventoryCategory), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { name, parent_id = null } = request.body;
      try {
        const created = await db.transaction().execute(async (trx) => {
          await lockTree(trx, session.tenantId);
          const parent = parent_id === null ? null : await requireParent(trx, session.tenantId, parent_id);
          const row = await trx
            .insertInto('inventory_categories')
            .values({ id: randomUUID(), tenant_id: session.tenantId, name, parent_id: parent?.id ?? null })
            .returning(['id', 'name', 'parent_id', 'created_at', 'updated_at'])
            .executeTakeFirstOrThrow();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: 'inventory_category.created',
            subjectType: 'inventory_category',
            subjectId: row.id,
            detail: { name, parent_id: row.parent_id },
          });
          return row;
        });
        return ok(request, categoryAnswer(created), 'inventory.category.created');
      } catch (error) {
        throw categoryRefusal(error, name);
      }
    },
  );

  app.put(
    '/api/inventory/category/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Rename or move a category (never under itself or one of its sub-categories)',
        params: IdParams,
        body: CategoryChanges,
        response: { 200: Ok(InventoryCategory), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const { name, parent_id } = request.body;
      try {
        const updated = await db.transaction().execute(async (trx) => {
          await lockTree(trx, tenantId);
          const before = await findCategory(trx, tenantId, request.params.id);
          if (!before) throw notFound();
          let parentId = before.parent_id;
          if (parent_id !== undefined && parent_id !== null) {
            const parent = await requireParent(trx, tenantId, parent_id);
            if ((await subtreeIds(trx, tenantId, before.id)).includes(parent.id)) {
              throw new ApiError(409, InventoryCode.categoryCycle, 'inventory.category.parent_cycle');
            }
            parentId = parent.id;
          } else if (parent_id === null) {
            parentId = null;
          }
          const row = await trx
            .updateTable('inventory_categories')
            .set({ name: name ?? before.name, parent_id: parentId, updated_at: new Date() })
            .where('id', '=', before.id)
            .returning(['id', 'name', 'parent_id', 'created_at', 'updated_at'])
            .executeTakeFirstOrThrow();
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: 'inventory_category.updated',
            subjectType: 'inventory_category',
            subjectId: before.id,
            detail: {
              from: { name: before.name, parent_id: before.parent_id },
              to: { name: row.name, parent_id: row.parent_id },
            },
          });
          return row;
        });
        return ok(request, categoryAnswer(updated), 'inventory.category.updated');
      } catch (error) {
        throw categoryRefusal(error, name);
      }
    },
  );

  app.delete(
    '/api/inventory/category/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a category no master code uses and without sub-categories',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      try {
        const id = await db.transaction().execute(async (trx) => {
          await lockTree(trx, tenantId);
          const category = await findCategory(trx, tenantId, request.params.id);
          if (!category) throw notFound();
          const children = await trx
            .selectFrom('inventory_categories')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('tenant_id', '=', tenantId)
            .where('parent_id', '=', category.id)
            .executeTakeFirstOrThrow();
          if (Number(children.n) > 0) {
            throw new ApiError(409, InventoryCode.hasSubcategories, 'inventory.category.has_subcategories', {
              count: Number(children.n),
            });
          }
          const used = await usedBy(trx, tenantId, 'category_id', category.id);
          if (used > 0) throw inUse('category', used);
          await trx.deleteFrom('inventory_categories').where('id', '=', category.id).execute();
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: 'inventory_category.deleted',
            subjectType: 'inventory_category',
            subjectId: category.id,
            detail: { name: category.name, parent_id: category.parent_id },
          });
          return category.id;
        });
        return ok(request, { id }, 'inventory.category.deleted');
      } catch (error) {
        // A master code took the category between the check and the delete.
        if (violation(error, '23503')) throw inUse('category', 1);
        throw error;
      }
    },
  );
}

async function usedBy(
  db: Db,
  tenantId: string,
  column: 'category_id' | 'brand_id' | 'unit_id',
  id: string,
): Promise<number> {
  const row = await db
    .selectFrom('master_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where(column, '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- brands and units: a name each ----

function flatListRoutes(
  app: Parameters<FastifyPluginAsyncZod<InventoryDeps>>[0],
  db: Kysely<Database>,
  kind: 'brand' | 'unit',
) {
  const table = kind === 'brand' ? 'brands' : 'units';
  const column = kind === 'brand' ? 'brand_id' : 'unit_id';
  const subjectType = kind;
  const Body = kind === 'brand' ? BrandBody : UnitBody;
  const path = `/api/inventory/${kind}`;
  // Brands and units have the same columns; one alias type serves both.
  const aliased = `${table} as x` as 'brands as x';
  const refusal = (error: unknown, name: string) =>
    violation(error, '23505', `${table}_name_idx`) ? nameTaken(kind, name) : error;

  const find = async (trx: Db, tenantId: string, id: string) =>
    isUuid(id)
      ? trx
          .selectFrom(table)
          .select(['id', 'name'])
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;

  const entry = async (trx: Db, id: string): Promise<CatalogueEntry> => {
    const row = await trx
      .selectFrom(aliased)
      .select(['x.id', 'x.name', 'x.created_at', 'x.updated_at', masterCodeCount(column, 'x').as('count')])
      .where('x.id', '=', id)
      .executeTakeFirstOrThrow();
    return {
      id: row.id,
      name: row.name,
      master_code_count: row.count,
      created_at: iso(row.created_at),
      updated_at: iso(row.updated_at),
    };
  };

  app.get(
    path,
    {
      config: { access: 'seller' },
      preHandler: requireAny(readers),
      schema: {
        tags,
        summary: `The account's ${kind}s, sorted by name`,
        response: { 200: Ok(z.array(CatalogueEntry)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await db
        .selectFrom(aliased)
        .select(['x.id', 'x.name', 'x.created_at', 'x.updated_at', masterCodeCount(column, 'x').as('count')])
        .where('x.tenant_id', '=', tenantId)
        .orderBy(sql`lower(x.name)`)
        .orderBy('x.id')
        .execute();
      return ok(
        request,
        rows.map((row) => ({
          id: row.id,
          name: row.name,
          master_code_count: row.count,
          created_at: iso(row.created_at),
          updated_at: iso(row.updated_at),
        })),
      );
    },
  );

  app.post(
    path,
    {
      config: access,
      schema: {
        tags,
        summary: `Add a ${kind}`,
        body: Body,
        response: { 200: Ok(CatalogueEntry), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { name } = request.body;
      try {
        const created = await db.transaction().execute(async (trx) => {
          const id = randomUUID();
          await trx.insertInto(table).values({ id, tenant_id: session.tenantId, name }).execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: `${kind}.created`,
            subjectType,
            subjectId: id,
            detail: { name },
          });
          return entry(trx, id);
        });
        return ok(request, created, `inventory.${kind}.created`);
      } catch (error) {
        throw refusal(error, name);
      }
    },
  );

  app.put(
    `${path}/:id`,
    {
      config: access,
      schema: {
        tags,
        summary: `Rename a ${kind}`,
        params: IdParams,
        body: Body,
        response: { 200: Ok(CatalogueEntry), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { name } = request.body;
      try {
        const updated = await db.transaction().execute(async (trx) => {
          const before = await find(trx, session.tenantId, request.params.id);
          if (!before) throw notFound();
          await trx
            .updateTable(table)
            .set({ name, updated_at: new Date() })
            .where('id', '=', before.id)
            .execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: `${kind}.updated`,
            subjectType,
            subjectId: before.id,
            detail: { name: { from: before.name, to: name } },
          });
          return entry(trx, before.id);
        });
        return ok(request, updated, `inventory.${kind}.updated`);
      } catch (error) {
        throw refusal(error, name);
      }
    },
  );

  app.delete(
    `${path}/:id`,
    {
      config: access,
      schema: {
        tags,
        summary: `Delete a ${kind} no master code uses`,
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      try {
        const id = await db.transaction().execute(async (trx) => {
          const row = await find(trx, session.tenantId, request.params.id);
          if (!row) throw notFound();
          const used = await usedBy(trx, session.tenantId, column, row.id);
          if (used > 0) throw inUse(kind, used);
          await trx.deleteFrom(table).where('id', '=', row.id).execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: `${kind}.deleted`,
            subjectType,
            subjectId: row.id,
            detail: { name: row.name },
          });
          return row.id;
        });
        return ok(request, { id }, `inventory.${kind}.deleted`);
      } catch (error) {
        if (violation(error, '23503')) throw inUse(kind, 1);
        throw error;
      }
    },
  );
}

export const catalogueRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db }) => {
  await categoryRoutes(app, db);
  flatListRoutes(app, db, 'brand');
  flatListRoutes(app, db, 'unit');
};
