import type { Database } from '@infra/db';
import { stockSettings } from '@projections/inventory/stock-settings';
import type { Kysely } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';

/** Changes the account's stock settings, with an activity-log row naming the change. */
export async function changeStockSettings(
  deps: { db: Kysely<Database> },
  actor: Required<Actor>,
  input: { refuse_negative_manual: boolean },
): Promise<void> {
  const { tenantId, userId } = actor;
  await deps.db.transaction().execute(async (trx) => {
    const before = await stockSettings(trx, tenantId);
    await trx
      .insertInto('inventory_settings')
      .values({ tenant_id: tenantId, ...input, updated_by: userId })
      .onConflict((oc) =>
        oc.column('tenant_id').doUpdateSet({ ...input, updated_by: userId, updated_at: new Date() }),
      )
      .execute();
    await logActivity(trx, {
      tenantId,
      userId,
      action: 'inventory_settings.updated',
      subjectType: 'inventory_settings',
      subjectId: tenantId,
      detail: {
        refuse_negative_manual: { from: before.refuse_negative_manual, to: input.refuse_negative_manual },
      },
    });
  });
}
