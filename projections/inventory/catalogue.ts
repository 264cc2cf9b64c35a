import type {
  CatalogueEntry,
  InventoryCategory,
  InventoryCategoryNode,
} from '@api/contracts/inventory-catalogue';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { type Kysely, sql, type Transaction } from 'kysely';

/**
 * Reading the inventory's categories (a tree per account), brands and units (plain tables;
 * commands/inventory/catalogue.ts writes them).
 */

type Db = Kysely<Database> | Transaction<Database>;
export type FlatKind = 'brand' | 'unit';
const iso = (value: Date) => value.toISOString();

export async function findCategory(db: Db, tenantId: string, id: string) {
  return isUuid(id)
    ? db
        .selectFrom('inventory_categories')
        .select(['id', 'name', 'parent_id', 'created_at', 'updated_at'])
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
    : undefined;
}

export const categoryAnswer = (
  row: NonNullable<Awaited<ReturnType<typeof findCategory>>>,
): InventoryCategory => ({
  id: row.id,
  name: row.name,
  parent_id: row.parent_id,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The category and every category under it. */
export async function subtreeIds(db: Db, tenantId: string, id: string): Promise<string[]> {
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

/** The account's inventory category tree, sorted by name. */
export async function categoryTree(db: Db, tenantId: string): Promise<InventoryCategoryNode[]> {
  const rows = await db
    .selectFrom('inventory_categories as c')
    .select(['c.id', 'c.name', 'c.parent_id', masterCodeCount('category_id', 'c').as('master_code_count')])
    .where('c.tenant_id', '=', tenantId)
    .orderBy(sql`lower(c.name)`)
    .orderBy('c.id')
    .execute();
  return buildTree(rows);
}

/** How many master codes use the category, brand or unit. */
export async function usedBy(
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

export const flatTable = (kind: FlatKind) => (kind === 'brand' ? 'brands' : 'units');
export const flatColumn = (kind: FlatKind) => (kind === 'brand' ? 'brand_id' : 'unit_id');
// Brands and units have the same columns; one alias type serves both.
const aliased = (kind: FlatKind) => `${flatTable(kind)} as x` as 'brands as x';

const selectEntries = (db: Db, kind: FlatKind) =>
  db
    .selectFrom(aliased(kind))
    .select([
      'x.id',
      'x.name',
      'x.created_at',
      'x.updated_at',
      masterCodeCount(flatColumn(kind), 'x').as('count'),
    ]);

type EntryRow = Awaited<ReturnType<ReturnType<typeof selectEntries>['executeTakeFirstOrThrow']>>;

const entryOf = (row: EntryRow): CatalogueEntry => ({
  id: row.id,
  name: row.name,
  master_code_count: row.count,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});

/** The account's brands or units, sorted by name. */
export async function listEntries(db: Db, tenantId: string, kind: FlatKind): Promise<CatalogueEntry[]> {
  const rows = await selectEntries(db, kind)
    .where('x.tenant_id', '=', tenantId)
    .orderBy(sql`lower(x.name)`)
    .orderBy('x.id')
    .execute();
  return rows.map(entryOf);
}

/** One brand or unit by id (the caller has checked it is the tenant's). */
export async function entryById(db: Db, kind: FlatKind, id: string): Promise<CatalogueEntry> {
  return entryOf(await selectEntries(db, kind).where('x.id', '=', id).executeTakeFirstOrThrow());
}
