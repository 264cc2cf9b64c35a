import type { PurchaseSettings, PurchaseSettingsBody } from '@api/contracts/purchases';
import { logActivity } from '@commands/support/activity';
import type { Database } from '@infra/db';
import { purchaseSettings } from '@projections/purchases.queries';
import type { Kysely } from 'kysely';
import type { ApprovingActor as Actor } from '../support/actor';

/** Saves the account's purchase settings (the owner's), with its activity-log row; answers them as saved. */
export async function savePurchaseSettings(
  deps: { db: Kysely<Database> },
  actor: Actor,
  settings: PurchaseSettingsBody,
): Promise<PurchaseSettings> {
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('purchase_settings')
      .values({ tenant_id: actor.tenantId, ...settings, updated_by: actor.userId })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({ ...settings, updated_by: actor.userId, updated_at: new Date() }),
      )
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'purchase_settings.updated',
      subjectType: 'purchase_settings',
      subjectId: actor.tenantId,
      detail: settings,
    });
  });
  return purchaseSettings(deps.db, actor.tenantId);
}
