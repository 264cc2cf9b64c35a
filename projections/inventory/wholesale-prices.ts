import type { MasterCodeGridQuery } from '@api/contracts/inventory-master-codes';
import type { WholesalePricing } from '@api/contracts/inventory-wholesale';
import type { WholesaleTier } from '@domain/inventory/wholesale';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { findMasterCodeRow, listMasterCodes, type MasterCodeRow } from './master-codes';

/**
 * Reading wholesale pricing (a plain table of tiers per master code; commands/inventory/wholesale-prices.ts writes
 * it): the master code grid's pages, searched, filtered and sorted as that grid is, each row with its tiers.
 */

/** The tiers of these master codes, lowest minimum first; a master code without any is absent. */
export async function wholesaleTiersOf(
  db: Kysely<Database>,
  tenantId: string,
  ids: readonly string[],
): Promise<Map<string, WholesaleTier[]>> {
  const tiers = new Map<string, WholesaleTier[]>();
  if (ids.length === 0) return tiers;
  const rows = await db
    .selectFrom('master_code_wholesale_prices')
    .select(['master_code_id', 'min_quantity', 'unit_price'])
    .where('tenant_id', '=', tenantId)
    .where('master_code_id', 'in', [...ids])
    .orderBy('master_code_id')
    .orderBy('min_quantity')
    .execute();
  for (const { master_code_id: id, ...tier } of rows) {
    const list = tiers.get(id) ?? [];
    list.push(tier);
    tiers.set(id, list);
  }
  return tiers;
}

const pricingOf = (row: MasterCodeRow, tiers: WholesaleTier[] | undefined): WholesalePricing => ({
  id: row.id,
  code: row.code,
  name: row.name,
  type: row.type,
  status: row.status,
  unit_price: row.unit_price,
  tiers: tiers ?? [],
});

export async function listWholesalePricing(
  db: Kysely<Database>,
  tenantId: string,
  query: MasterCodeGridQuery,
): Promise<{ rows: WholesalePricing[]; lastRow: number }> {
  const page = await listMasterCodes(db, tenantId, query);
  const tiers = await wholesaleTiersOf(
    db,
    tenantId,
    page.rows.map((row) => row.id),
  );
  return { rows: page.rows.map((row) => pricingOf(row, tiers.get(row.id))), lastRow: page.lastRow };
}

/** One master code's wholesale pricing; another tenant's answers as missing. */
export async function wholesalePricingOf(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
): Promise<WholesalePricing | undefined> {
  const row = await findMasterCodeRow(db, tenantId, id);
  if (!row) return undefined;
  return pricingOf(row, (await wholesaleTiersOf(db, tenantId, [row.id])).get(row.id));
}
