import type { WholesalePricing, WholesaleTiersBody } from '@api/contracts/inventory-wholesale';
import { refuseMasterCode } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { wholesalePricingOf } from '@projections/inventory/wholesale-prices';
import type { Kysely } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';

/**
 * Setting a master code's wholesale tiers (spec §2 /inventory/wholesale-pricing): the list given replaces the whole
 * list (an empty one removes wholesale pricing), with an activity-log row naming the tiers before and after.
 */
export async function setWholesaleTiers(
  deps: { db: Kysely<Database> },
  actor: Actor,
  input: { id: string; body: WholesaleTiersBody },
): Promise<WholesalePricing> {
  const { tenantId } = actor;
  const { id } = input;
  const tiers = [...input.body.tiers].sort((a, b) => a.min_quantity - b.min_quantity);
  await deps.db.transaction().execute(async (trx) => {
    // The master code row locked: two editors saving at once write one list after the other, never a mix.
    const found = isUuid(id)
      ? await trx
          .selectFrom('master_codes')
          .select('id')
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!found) throw refuseMasterCode('NOT_FOUND');
    const before = await trx
      .deleteFrom('master_code_wholesale_prices')
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', id)
      .returning(['min_quantity', 'unit_price'])
      .execute();
    if (tiers.length > 0) {
      await trx
        .insertInto('master_code_wholesale_prices')
        .values(tiers.map((tier) => ({ tenant_id: tenantId, master_code_id: id, ...tier })))
        .execute();
    }
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'master_code.wholesale_prices_changed',
      subjectType: 'master_code',
      subjectId: id,
      detail: { from: before.sort((a, b) => a.min_quantity - b.min_quantity), to: tiers },
    });
  });
  const answer = await wholesalePricingOf(deps.db, tenantId, id);
  if (!answer) throw refuseMasterCode('NOT_FOUND');
  return answer;
}
