import type { InvoiceLine, ManifestInvoice } from '@api/contracts/manifests';
import { checkManifestMonth } from '@domain/orders/carrier-manifest';
import type { Database } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
import { csvText } from '@infra/sheets/write';
import {
  accountZone,
  type InvoiceRow,
  invoiceOrdersOfMonth,
  invoiceRowsOfMonth,
  manifestOfMonth,
} from '@projections/manifests.queries';
import type { Kysely } from 'kysely';
import { currentMonth, exportTime } from './carrier-manifest';

/**
 * The manifest invoice (spec §2 /orders/manifest-invoice): the carrier manifest's billing view. For a month, per
 * carrier, the parcels shipped, their units, their weight from the master codes' weights and the postage the
 * marketplace charged, with totals — to check a carrier's bill against. Counted live from the shipped orders (the
 * carrier manifest's own count), so it never waits for a manifest to be created; an unknown weight or postage is
 * counted as such, never as zero.
 */

type Deps = { db: Kysely<Database> };

/** Adds amounts kept as text with `decimals` places, in whole units of the last place (no float drift). */
function addDecimals(values: readonly string[], decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const units = values.reduce((sum, value) => {
    const [whole = '0', fraction = ''] = value.replace('-', '').split('.');
    const amount = BigInt(whole) * scale + BigInt(fraction.padEnd(decimals, '0').slice(0, decimals) || '0');
    return sum + (value.startsWith('-') ? -amount : amount);
  }, 0n);
  const sign = units < 0n ? '-' : '';
  const absolute = units < 0n ? -units : units;
  return `${sign}${absolute / scale}.${String(absolute % scale).padStart(decimals, '0')}`;
}

/** One invoice line from rows of one carrier (or of all, for the totals), postage per currency. */
function lineOf(provider: string, rows: readonly InvoiceRow[]): InvoiceLine {
  const currencies = [...new Set(rows.map((row) => row.currency))].sort();
  return {
    provider,
    parcels: rows.reduce((sum, row) => sum + row.parcels, 0),
    units: rows.reduce((sum, row) => sum + row.units, 0),
    weight_kg: addDecimals(
      rows.map((row) => row.weight_kg),
      3,
    ),
    unweighed_parcels: rows.reduce((sum, row) => sum + row.unweighed_parcels, 0),
    postage: currencies.flatMap((currency) => {
      const priced = rows.filter((row) => row.currency === currency && row.parcels > row.unpriced_parcels);
      return priced.length
        ? [
            {
              currency,
              amount: addDecimals(
                priced.map((row) => row.postage),
                2,
              ),
            },
          ]
        : [];
    }),
    unpriced_parcels: rows.reduce((sum, row) => sum + row.unpriced_parcels, 0),
  };
}

/** The month's invoice, in the account's time zone; a month to come is refused. */
export async function manifestInvoice(
  deps: Deps,
  actor: { tenantId: string },
  input: { month: string },
): Promise<ManifestInvoice> {
  const zone = await accountZone(deps.db, actor.tenantId);
  checkManifestMonth(input.month, currentMonth(zone));
  const rows = await invoiceRowsOfMonth(deps.db, actor.tenantId, input.month, zone);
  const providers = [...new Set(rows.map((row) => row.provider))];
  const manifest = await manifestOfMonth(deps.db, actor.tenantId, input.month);
  return {
    month: input.month,
    manifest: manifest ? { id: manifest.id, updated_at: manifest.updated_at.toISOString() } : null,
    carriers: providers.map((provider) =>
      lineOf(
        provider,
        rows.filter((row) => row.provider === provider),
      ),
    ),
    totals: lineOf('', rows),
  };
}

const COLUMNS = [
  'carrier',
  'order_number',
  'tracking_number',
  'shipped_at',
  'units',
  'weight_kg',
  'currency',
  'postage',
] as const;

/** The month's billed orders as CSV, one row per parcel; an unknown weight or postage is left empty. */
export async function manifestInvoiceFile(
  deps: Deps,
  actor: { tenantId: string },
  input: { month: string; language: Language },
): Promise<{ name: string; csv: string }> {
  const zone = await accountZone(deps.db, actor.tenantId);
  checkManifestMonth(input.month, currentMonth(zone));
  const orders = await invoiceOrdersOfMonth(deps.db, actor.tenantId, input.month, zone);
  const header = COLUMNS.map((column) => translate(input.language, `manifests.invoice.columns.${column}`));
  const time = exportTime(zone);
  const rows = orders.map((order) => [
    order.provider || translate(input.language, 'manifests.invoice.no_carrier'),
    order.order_number,
    order.tracking_number ?? '',
    time.format(order.shipped_at),
    order.units,
    order.unweighed ? '' : order.weight_kg,
    order.currency,
    order.postage ?? '',
  ]);
  return { name: `manifest-invoice-${input.month}.csv`, csv: csvText(header, rows) };
}
