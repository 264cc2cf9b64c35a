import type { ScanSettingsAnswer, ScanSettingsBody } from '@api/contracts/scan';
import type { Database } from '@infra/db';
import { scanSettingsOf } from '@projections/scan.queries';
import type { Kysely } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';

/** The bulk scan control screen (domain/scan/settings.ts): the account's options, read and saved. */

export async function scanSettingsAnswer(
  db: Kysely<Database>,
  tenantId: string,
): Promise<ScanSettingsAnswer> {
  const settings = await scanSettingsOf(db, tenantId);
  return {
    quantity_entry: settings.quantityEntry,
    order_number_scan: settings.orderNumberScan,
    bulk_single_items: settings.bulkSingleItems,
    updated_at: settings.updatedAt?.toISOString() ?? null,
  };
}

/** Saves the options, with the change's activity-log row; answers them as saved. */
export async function saveScanSettings(
  deps: { db: Kysely<Database> },
  actor: Actor,
  body: ScanSettingsBody,
): Promise<ScanSettingsAnswer> {
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('scan_settings')
      .values({ tenant_id: actor.tenantId, ...body, updated_by: actor.userId })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({ ...body, updated_by: actor.userId, updated_at: new Date() }),
      )
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'scan_settings.updated',
      subjectType: 'scan_settings',
      subjectId: actor.tenantId,
      detail: body,
    });
  });
  return scanSettingsAnswer(deps.db, actor.tenantId);
}
