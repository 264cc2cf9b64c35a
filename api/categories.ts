import { randomUUID } from 'node:crypto';
import { logActivity as logSharedActivity } from '@api/activity';
import { isUuid } from '@api/ids';
import { PLATFORM_CODES } from '@domain/lookups';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { Ok, ok, refusals } from './answers';
import { type SellerSession, seller } from './auth/session';
import { ApiError, invalid, notFound } from './errors';

/**
 * The storefront and other-platform category managers (spec §3, §5, §8): one tree per seller account and platform,
 * a category at the root or under a parent; add (0 created, 410 name required), update (0 updated, 400 missing ID,
 * 410 name required), delete with its sub-tree (0 deleted, 400 missing ID), and search from 2 characters (§9).
 * Another account's category answers like a missing one.
 */

/** The marketplaces and storefront platforms of the spec, plus the seller's own web store. */
export const CATEGORY_PLATFORMS = [...PLATFORM_CODES, 'webstore'] as const;
export type CategoryPlatform = (typeof CATEGORY_PLATFORMS)[number];

export const CATEGORY_NAME_MAX_LENGTH = 100;
/** Minimum category search length (spec §9). */
export const CATEGORY_SEARCH_MIN_LENGTH = 2;
const SEARCH_RESULTS_MAX = 50;

// ---- shapes ----

export interface CategoryNode {
  id: string;
  name: string;
  parent_id: string | null;
  children: CategoryNode[];
}
export const CategoryNode: z.ZodType<CategoryNode> = z
  .object({
    id: z.string(),
    name: z.string(),
    parent_id: z.string().nullable(),
    get children() {
      return z.array(CategoryNode);
    },
  })
  .meta({ id: 'CategoryNode' });

export const Category = z.object({ id: z.string(), name: z.string(), parent_id: z.string().nullable() });
export type Category = z.infer<typeof Category>;

export const CategoryMatch = Category.extend({
  /** Names from the root down to this category, for showing where a match sits. */
  path: z.array(z.string()),
});

const PlatformParams = z.object({
  platform: z.enum(CATEGORY_PLATFORMS, { error: invalid(400, 'category.unknown_platform') }),
});

const nameRequired = invalid(410, 'category.name_required');
const CategoryName = z
  .string({ error: nameRequired })
  .trim()
  .min(1, nameRequired)
  .max(CATEGORY_NAME_MAX_LENGTH, invalid(410, 'category.name_too_long', { max: CATEGORY_NAME_MAX_LENGTH }));

const missingId = invalid(400, 'category.missing_id');
const CategoryId = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? missingId : invalid(400, 'category.invalid_id'),
  })
  .trim()
  .min(1, missingId)
  .max(64, invalid(400, 'category.invalid_id'));

/** null or absent: at the root. */
const ParentId = z.string().max(64).nullable();

/** With no body at all, the first thing missing is what the catalogue names. */
const noBody = (message: string) => ({
  error: (issue: { code?: string; input?: unknown }) =>
    issue.code === 'invalid_type' && issue.input == null ? message : undefined,
});

export const AddCategory = z.strictObject(
  { name: CategoryName, parent_id: ParentId.optional() },
  noBody(nameRequired),
);
export const UpdateCategory = z.strictObject(
  { id: CategoryId, name: CategoryName, parent_id: ParentId.optional() },
  noBody(missingId),
);
export const DeleteCategory = z.strictObject({ id: CategoryId }, noBody(missingId));

export const SearchQuery = z.strictObject({
  q: z
    .string({ error: invalid(400, 'common.too_short', { length: CATEGORY_SEARCH_MIN_LENGTH }) })
    .trim()
    .min(CATEGORY_SEARCH_MIN_LENGTH, invalid(400, 'common.too_short', { length: CATEGORY_SEARCH_MIN_LENGTH }))
    .max(CATEGORY_NAME_MAX_LENGTH),
});

// ---- the tree's storage ----

type Db = Kysely<Database> | Transaction<Database>;

async function findCategory(db: Db, session: SellerSession, platform: string, id: string) {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('categories')
    .select(['id', 'name', 'parent_id'])
    .where('id', '=', id)
    .where('tenant_id', '=', session.tenantId)
    .where('platform', '=', platform)
    .executeTakeFirst();
}

/** A parent must be a category of the same account and platform; any other id answers as not found. */
async function requireParent(db: Db, session: SellerSession, platform: string, parentId: string) {
  const parent = await findCategory(db, session, platform, parentId);
  if (!parent) throw new ApiError(404, 404, 'category.parent_not_found');
  return parent;
}

/** The category and every category under it. */
async function subtreeIds(db: Db, id: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE subtree AS (
      SELECT id FROM categories WHERE id = ${id}
      UNION ALL
      SELECT c.id FROM categories c JOIN subtree s ON c.parent_id = s.id
    )
    SELECT id FROM subtree`.execute(db);
  return rows.map((row) => row.id);
}

/** One writer at a time per tree, so two moves cannot together make a cycle. */
async function lockTree(trx: Transaction<Database>, session: SellerSession, platform: string) {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`categories|${session.tenantId}|${platform}`}))`.execute(
    trx,
  );
}

function logActivity(
  trx: Transaction<Database>,
  session: SellerSession,
  action: string,
  id: string,
  detail: Record<string, unknown>,
) {
  return logSharedActivity(trx, {
    tenantId: session.tenantId,
    userId: session.userId,
    action,
    subjectType: 'category',
    subjectId: id,
    detail,
  });
}

function buildTree(rows: Category[]): CategoryNode[] {
  const nodes = new Map<string, CategoryNode>(rows.map((row) => [row.id, { ...row, children: [] }]));
  const roots: CategoryNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.id)!;
    const parent = row.parent_id ? nodes.get(row.parent_id) : undefined;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const likePattern = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

// ---- the routes ----

export const categoryRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  const tags = ['categories'];
  const read = { access: { permission: 'listings-index' } } as const;
  const write = { access: { permission: 'listings-manage' } } as const;

  app.get(
    '/api/category/:platform',
    {
      config: read,
      schema: {
        tags,
        summary: "The platform's category tree, sorted by name",
        params: PlatformParams,
        response: { 200: Ok(z.array(CategoryNode)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const rows = await db
        .selectFrom('categories')
        .select(['id', 'name', 'parent_id'])
        .where('tenant_id', '=', session.tenantId)
        .where('platform', '=', request.params.platform)
        .orderBy(sql`lower(name)`)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return ok(request, buildTree(rows));
    },
  );

  app.get(
    '/api/category/:platform/search',
    {
      config: read,
      schema: {
        tags,
        summary: `Categories whose name contains q (at least ${CATEGORY_SEARCH_MIN_LENGTH} characters)`,
        params: PlatformParams,
        querystring: SearchQuery,
        response: { 200: Ok(z.array(CategoryMatch)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { platform } = request.params;
      const pattern = `%${likePattern(request.query.q)}%`;
      const { rows } = await sql<{ id: string; name: string; parent_id: string | null; path: string[] }>`
        WITH RECURSIVE tree AS (
          SELECT id, name, parent_id, ARRAY[name] AS path
            FROM categories
           WHERE tenant_id = ${session.tenantId} AND platform = ${platform} AND parent_id IS NULL
          UNION ALL
          SELECT c.id, c.name, c.parent_id, t.path || c.name
            FROM categories c JOIN tree t ON c.parent_id = t.id
        )
        SELECT id, name, parent_id, path FROM tree
         WHERE name ILIKE ${pattern}
         ORDER BY lower(name), array_length(path, 1), id
         LIMIT ${SEARCH_RESULTS_MAX}`.execute(db);
      return ok(request, rows);
    },
  );

  app.post(
    '/api/category/:platform/add',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a category at the root or under a parent (0 created; 410 name required)',
        params: PlatformParams,
        body: AddCategory,
        response: { 200: Ok(Category), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { platform } = request.params;
      const { name, parent_id = null } = request.body;
      const created = await db.transaction().execute(async (trx) => {
        await lockTree(trx, session, platform);
        if (parent_id !== null) await requireParent(trx, session, platform, parent_id);
        const category = await trx
          .insertInto('categories')
          .values({ id: randomUUID(), tenant_id: session.tenantId, platform, name, parent_id })
          .returning(['id', 'name', 'parent_id'])
          .executeTakeFirstOrThrow();
        await logActivity(trx, session, 'category.created', category.id, { platform, name, parent_id });
        return category;
      });
      return ok(request, created, 'category.created');
    },
  );

  app.post(
    '/api/category/:platform/update',
    {
      config: write,
      schema: {
        tags,
        summary: 'Rename or move a category (0 updated; 400 missing ID; 410 name required)',
        params: PlatformParams,
        body: UpdateCategory,
        response: { 200: Ok(Category), 409: refusals[400], ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { platform } = request.params;
      const { id, name, parent_id } = request.body;
      const updated = await db.transaction().execute(async (trx) => {
        await lockTree(trx, session, platform);
        const before = await findCategory(trx, session, platform, id);
        if (!before) throw notFound();
        const parentId = parent_id === undefined ? before.parent_id : parent_id;
        if (parentId !== null && parentId !== before.parent_id) {
          await requireParent(trx, session, platform, parentId);
          if ((await subtreeIds(trx, id)).includes(parentId.toLowerCase())) {
            throw new ApiError(409, 409, 'category.parent_cycle');
          }
        }
        const category = await trx
          .updateTable('categories')
          .set({ name, parent_id: parentId, updated_at: new Date() })
          .where('id', '=', before.id)
          .returning(['id', 'name', 'parent_id'])
          .executeTakeFirstOrThrow();
        await logActivity(trx, session, 'category.updated', id, {
          platform,
          from: { name: before.name, parent_id: before.parent_id },
          to: { name, parent_id: parentId },
        });
        return category;
      });
      return ok(request, updated, 'category.updated');
    },
  );

  app.post(
    '/api/category/:platform/delete',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a category and its sub-categories (0 deleted; 400 missing ID)',
        params: PlatformParams,
        body: DeleteCategory,
        response: { 200: Ok(z.object({ id: z.string(), deleted: z.number().int() })), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { platform } = request.params;
      const { id } = request.body;
      const deleted = await db.transaction().execute(async (trx) => {
        await lockTree(trx, session, platform);
        const category = await findCategory(trx, session, platform, id);
        if (!category) throw notFound();
        const ids = await subtreeIds(trx, category.id);
        // The foreign key removes the sub-tree with its root.
        await trx.deleteFrom('categories').where('id', '=', category.id).execute();
        await logActivity(trx, session, 'category.deleted', category.id, {
          platform,
          name: category.name,
          deleted: ids.length,
        });
        return { id: category.id, deleted: ids.length };
      });
      return ok(request, deleted, 'category.deleted');
    },
  );
};
