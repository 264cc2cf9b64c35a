import { DEFAULT_SCAN_SETTINGS, type ScanSettings } from '@domain/scan/settings';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, sql } from 'kysely';
import { SCANNED_STATUSES } from './batches';

/** What the scan screen reads besides the checks themselves: the package's smart scan, the batches to scan by. */

/** Whether the account's package has the smart scan module (spec §6 package flags; on unless switched off). */
export async function smartScanEnabled(db: Kysely<Database>, tenantId: string): Promise<boolean> {
  const row = await db
    .selectFrom('tenants as t')
    .innerJoin('packages as p', 'p.id', 't.package_id')
    .select('p.flags')
    .where('t.id', '=', tenantId)
    .executeTakeFirst();
  const flags = (row?.flags ?? {}) as { smartScan?: boolean };
  return flags.smartScan !== false;
}

/** The open batches to scan by, newest first, with how many of their orders are scanned; `pickerId`: theirs only. */
export async function openBatchesToScan(db: Kysely<Database>, tenantId: string, pickerId: string | null) {
  const { rows } = await withTenant(db, tenantId, (trx) =>
    sql<{
      id: string;
      label: string;
      name: string;
      picker_id: string | null;
      total_orders: number;
      scanned_orders: number;
    }>`
      SELECT b.id, b.label, b.name, b.picker_id, b.total_orders, (
        SELECT count(*)::int4 FROM orders o
        WHERE o.tenant_id = b.tenant_id AND o.id = ANY (b.order_ids)
          AND o.status IN (${sql.join([...SCANNED_STATUSES])})) AS scanned_orders
      FROM batches b
      WHERE b.tenant_id = ${tenantId} AND b.status = 'open'
        ${pickerId ? sql`AND b.picker_id::text = ${pickerId}` : sql``}
      ORDER BY b.number DESC LIMIT 200`.execute(trx),
  );
  return rows;
}

/** The account's bulk scan control (no row: every option off), with when it was last changed. */
export async function scanSettingsOf(
  db: Kysely<Database>,
  tenantId: string,
): Promise<ScanSettings & { updatedAt: Date | null }> {
  const row = await db
    .selectFrom('scan_settings')
    .select(['quantity_entry', 'order_number_scan', 'bulk_single_items', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return { ...DEFAULT_SCAN_SETTINGS, updatedAt: null };
  return {
    quantityEntry: row.quantity_entry,
    orderNumberScan: row.order_number_scan,
    bulkSingleItems: row.bulk_single_items,
    updatedAt: row.updated_at,
  };
}
