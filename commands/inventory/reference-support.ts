import { PackageLimits } from '@domain/access/packages';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/** What the commands on the inventory's reference data share: the stock hook and the package's limits. */

/**
 * On-hand stock of a master code in a warehouse or branch. The stock projection provides it; without one (before the
 * stock side is wired in) every figure is 0.
 */
export type StockOf = (tenantId: string, masterCodeId: string, warehouseId: string) => Promise<number>;

export const noStock: StockOf = async () => 0;

export type SubjectType =
  | 'master_code'
  | 'combo'
  | 'inventory_category'
  | 'brand'
  | 'unit'
  | 'warehouse'
  | 'rack'
  | 'master_code_location';

/** The package's limit for `limit` (null: unlimited) and its name, read inside the caller's transaction. */
export async function packageLimit(
  trx: Kysely<Database>,
  tenantId: string,
  limit: 'masterCodes' | 'branches',
): Promise<{ name: string; limit: number | null }> {
  const pkg = await trx
    .selectFrom('tenants as n')
    .innerJoin('packages as p', 'p.id', 'n.package_id')
    .select(['p.name', 'p.limits'])
    .where('n.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return { name: pkg.name, limit: PackageLimits.parse(pkg.limits)[limit] };
}

/** What the reference-data commands need: the database and, where stock decides, the stock hook. */
export interface ReferenceDeps {
  db: Kysely<Database>;
  stockOf?: StockOf;
}
