import type { Database } from '@infra/db';
import type { Kysely, Transaction } from 'kysely';

/** The account's stock settings (a plain table; commands/inventory/stock-settings.ts changes it). */

export interface StockSettings {
  refuse_negative_manual: boolean;
  updated_at: string | null;
}

export const DEFAULT_STOCK_SETTINGS = { refuse_negative_manual: true } as const;

export async function stockSettings(
  db: Kysely<Database> | Transaction<Database>,
  tenantId: string,
): Promise<StockSettings> {
  const row = await db
    .selectFrom('inventory_settings')
    .select(['refuse_negative_manual', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .executeTakeFirst();
  return row
    ? { refuse_negative_manual: row.refuse_negative_manual, updated_at: row.updated_at.toISOString() }
    : { ...DEFAULT_STOCK_SETTINGS, updated_at: null };
}
