import type { Category, CategoryMatch, CategoryNode } from '@api/contracts/categories';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/** Reads of the category trees (one per seller account and platform). */

type Db = Kysely<Database> | Transaction<Database>;
const SEARCH_RESULTS_MAX = 50;

/** A category of the account's tree on the platform; another account's id is undefined like a missing one. */
export async function findCategory(
  db: Db,
  tenantId: string,
  platform: string,
  id: string,
): Promise<Category | undefined> {
  if (!isUuid(id)) return undefined;
  return db
    .selectFrom('categories')
    .select(['id', 'name', 'parent_id'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('platform', '=', platform)
    .executeTakeFirst();
}

/** The category and every category under it. */
export async function subtreeIds(db: Db, id: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE subtree AS (
      SELECT id FROM categories WHERE id = ${id}
      UNION ALL
      SELECT c.id FROM categories c JOIN subtree s ON c.parent_id = s.id
    )
    SELECT id FROM subtree`.execute(db);
  return rows.map((row) => row.id);
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

/** The platform's category tree, sorted by name. */
export async function categoryTree(db: Db, tenantId: string, platform: string): Promise<CategoryNode[]> {
  const rows = await db
    .selectFrom('categories')
    .select(['id', 'name', 'parent_id'])
    .where('tenant_id', '=', tenantId)
    .where('platform', '=', platform)
    .orderBy(sql`lower(name)`)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return buildTree(rows);
}

const likePattern = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Categories whose name contains the text, each with its path from the root. */
export async function searchCategories(
  db: Db,
  tenantId: string,
  platform: string,
  text: string,
): Promise<CategoryMatch[]> {
  const pattern = `%${likePattern(text)}%`;
  const { rows } = await sql<CategoryMatch>`
    WITH RECURSIVE tree AS (
      SELECT id, name, parent_id, ARRAY[name] AS path
        FROM categories
       WHERE tenant_id = ${tenantId} AND platform = ${platform} AND parent_id IS NULL
      UNION ALL
      SELECT c.id, c.name, c.parent_id, t.path || c.name
        FROM categories c JOIN tree t ON c.parent_id = t.id
    )
    SELECT id, name, parent_id, path FROM tree
     WHERE name ILIKE ${pattern}
     ORDER BY lower(name), array_length(path, 1), id
     LIMIT ${SEARCH_RESULTS_MAX}`.execute(db);
  return rows;
}
