import { randomUUID } from 'node:crypto';
import { checkManifestMonth } from '@domain/orders/carrier-manifest';
import type { Database } from '@infra/db';
import { accountZone, carriersOfMonth, type ManifestRecord } from '@projections/manifests.queries';
import type { Kysely } from 'kysely';

/** This month in `zone`, as YYYY-MM. */
function currentMonth(zone: string, now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(now);
  return `${parts.find((p) => p.type === 'year')!.value}-${parts.find((p) => p.type === 'month')!.value}`;
}

/**
 * Creates (or counts again) a month's carrier manifest: the orders shipped that month per carrier, in the account's
 * time zone. One manifest per month; a month to come is refused.
 */
export async function createCarrierManifest(
  deps: { db: Kysely<Database> },
  actor: { tenantId: string; userId: string },
  input: { month: string },
): Promise<ManifestRecord> {
  const { month } = input;
  const zone = await accountZone(deps.db, actor.tenantId);
  checkManifestMonth(month, currentMonth(zone));
  const carriers = await carriersOfMonth(deps.db, actor.tenantId, month, zone);
  const total = carriers.reduce((sum, carrier) => sum + carrier.count, 0);
  const row = await deps.db
    .insertInto('carrier_manifests')
    .values({
      id: randomUUID(),
      tenant_id: actor.tenantId,
      month,
      total_shipped: total,
      carriers: JSON.stringify(carriers),
      created_by: actor.userId,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'month']).doUpdateSet({
        total_shipped: total,
        carriers: JSON.stringify(carriers),
        created_by: actor.userId,
        updated_at: new Date(),
      }),
    )
    .returning(['id', 'month', 'total_shipped', 'carriers', 'created_by', 'created_at', 'updated_at'])
    .executeTakeFirstOrThrow();
  return row as ManifestRecord;
}
