import { randomUUID } from 'node:crypto';
import type { Manifest } from '@api/contracts/manifests';
import { checkManifestMonth } from '@domain/orders/carrier-manifest';
import type { Database } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
import { csvText } from '@infra/sheets/write';
import {
  accountZone,
  carriersOfMonth,
  type ManifestRecord,
  manifestAnswers,
  manifestMonth,
  shippedOrdersOfMonth,
} from '@projections/manifests.queries';
import type { Kysely } from 'kysely';

/** This month in `zone`, as YYYY-MM. */
export function currentMonth(zone: string, now = new Date()): string {
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
): Promise<Manifest> {
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
  const [answer] = await manifestAnswers(deps.db, actor.tenantId, [row as ManifestRecord]);
  return answer!;
}

/** Times in an export: `yyyy-mm-dd hh:mm:ss` in the account's zone, which spreadsheets read as a time. */
export const exportTime = (zone: string) =>
  new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

const COLUMNS = ['order_number', 'tracking_number', 'carrier', 'store', 'marketplace', 'shipped_at'] as const;

/** A manifest's shipped orders as CSV, times in the account's zone (null: not the account's manifest). */
export async function carrierManifestFile(
  deps: { db: Kysely<Database> },
  actor: { tenantId: string },
  input: { id: string; language: Language },
): Promise<{ name: string; csv: string } | null> {
  const month = await manifestMonth(deps.db, actor.tenantId, input.id);
  if (!month) return null;
  const zone = await accountZone(deps.db, actor.tenantId);
  const orders = await shippedOrdersOfMonth(deps.db, actor.tenantId, month, zone);
  const header = COLUMNS.map((column) => translate(input.language, `manifests.columns.${column}`));
  const time = exportTime(zone);
  const rows = orders.map((order) => [
    order.order_number,
    order.tracking_number ?? '',
    order.shipping_provider ?? '',
    order.store_name ?? '',
    order.platform,
    time.format(order.shipped_at),
  ]);
  return { name: `carrier-manifest-${month}.csv`, csv: csvText(header, rows) };
}
