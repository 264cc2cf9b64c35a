import type { COMBO_SORT_COLUMNS, ComboGridQuery, ComboRow } from '@api/contracts/inventory-combos';
import type { ComboItem } from '@api/contracts/inventory-master-codes';
import type { Database } from '@infra/db';
import { allOf, dateWhere, literal, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { comboItemsOf, masterCode, masterCodePage } from './master-codes';

/** The combo grid (ag-grid Infinite Row Model): the account's combos with their items. */

const sortColumns: Record<(typeof COMBO_SORT_COLUMNS)[number], RawBuilder<unknown>> = {
  code: sql`lower(m.code)`,
  name: sql`lower(m.name)`,
  status: sql`m.status`,
  created_at: sql`m.created_at`,
  updated_at: sql`m.updated_at`,
};

function conditions(query: ComboGridQuery): RawBuilder<SqlBool> {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  if (filterModel.code) where.push(textWhere(sql<string>`m.code`, filterModel.code));
  if (filterModel.name) where.push(textWhere(sql<string>`m.name`, filterModel.name));
  if (filterModel.status) where.push(setWhere(sql`m.status`, filterModel.status.values));
  if (filterModel.updated_at) where.push(dateWhere(sql<Date>`m.updated_at`, filterModel.updated_at));
  const search = query.search?.trim();
  if (search) {
    // The combo's own code or name, or the code of one of its components: "which combos hold this item?".
    const pattern = `%${literal(search)}%`;
    where.push(sql<SqlBool>`(m.code ILIKE ${pattern} OR m.name ILIKE ${pattern} OR EXISTS (
      SELECT 1 FROM combo_items i JOIN master_codes p ON p.id = i.component_id
       WHERE i.combo_id = m.id AND p.code ILIKE ${pattern}))`);
  }
  return allOf(where);
}

export async function listCombos(
  db: Kysely<Database>,
  tenantId: string,
  query: ComboGridQuery,
): Promise<{ rows: ComboRow[]; lastRow: number }> {
  const where = allOf([sql<SqlBool>`m.type = 'combo'`, conditions(query)]);
  const { rows, lastRow } = await masterCodePage(
    db,
    tenantId,
    where,
    sortTerms(query.sortModel, sortColumns),
    query,
  );
  const items =
    rows.length === 0
      ? []
      : await comboItemsOf(
          db,
          tenantId,
          rows.map((row) => row.id),
        );
  const itemsOf = new Map<string, ComboItem[]>();
  for (const { combo_id, ...item } of items) {
    itemsOf.set(combo_id, [...(itemsOf.get(combo_id) ?? []), item]);
  }
  return {
    rows: rows.map((row) => ({ ...masterCode(row), items: itemsOf.get(row.id) ?? [] })),
    lastRow,
  };
}

/** The components of these combos (a code that is no combo has none), each combo's in its order. */
export async function componentsOfCombos(
  db: Kysely<Database>,
  tenantId: string,
  comboIds: readonly string[],
): Promise<Map<string, { masterCodeId: string; quantity: number }[]>> {
  const combos = new Map<string, { masterCodeId: string; quantity: number }[]>();
  if (comboIds.length === 0) return combos;
  const items = await db
    .selectFrom('combo_items')
    .select(['combo_id', 'component_id', 'quantity'])
    .where('tenant_id', '=', tenantId)
    .where('combo_id', 'in', [...comboIds])
    .orderBy('combo_id')
    .orderBy('position')
    .execute();
  for (const item of items) {
    combos.set(item.combo_id, [
      ...(combos.get(item.combo_id) ?? []),
      { masterCodeId: item.component_id, quantity: item.quantity },
    ]);
  }
  return combos;
}
