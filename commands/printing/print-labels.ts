import type { PrintLabels } from '@api/contracts/inventory-barcode';
import { country } from '@domain/lookups';
import { isUuid } from '@domain/platform/ids';
import { refuseLabels } from '@domain/printing/labels';
import type { Db } from '@infra/db';
import { labelSources } from '@projections/inventory/master-codes';
import type { Actor } from '../support/actor';
import { isCode128Text, type LabelItem, LabelLayoutError, pageLayout, renderLabels } from './labels';

/** `12.50` → `MYR 12.50`; nothing for no price or a price of 0 (a master code whose price was never set). */
const priceText = (amount: string | undefined, currency: string | undefined) =>
  amount === undefined || Number(amount) === 0 ? null : currency ? `${currency} ${amount}` : amount;

/**
 * Barcode labels for the chosen master codes as a PDF (spec §3 "Barcode printing"). The sheet is checked first (a
 * layout that cannot work needs no lookup); another account's master code answers exactly like a missing one; a
 * price shows in the account's own currency, or from the price list of the currency asked for. `words` names the
 * paper and orientation in the caller's language for the refusal that names them.
 */
export async function printLabels(
  deps: { db: Db },
  actor: Pick<Actor, 'tenantId'>,
  input: PrintLabels,
  words: (key: string) => string,
): Promise<Buffer> {
  try {
    pageLayout({
      paper: input.paper,
      widthMm: input.width_mm,
      heightMm: input.height_mm,
      orientation: input.orientation,
      perSheet: input.per_sheet,
    });
  } catch (error) {
    if (!(error instanceof LabelLayoutError)) throw error;
    throw refuseLabels('DOES_NOT_FIT', {
      per_sheet: error.details.per_sheet ?? 0,
      capacity: error.details.capacity ?? 0,
      width: input.width_mm,
      height: input.height_mm,
      paper: words(`barcode.paper.${input.paper}`),
      orientation: words(`barcode.orientation.${input.orientation}`),
    });
  }

  const ids = [...new Set(input.master_codes.map((entry) => entry.id))];
  if (!ids.every(isUuid)) throw refuseLabels('NOT_FOUND');
  const sources = await labelSources(deps.db, actor.tenantId, ids, input.show_price ? input.currency : null);
  if (sources.rows.length !== ids.length) throw refuseLabels('NOT_FOUND');
  const byId = new Map(sources.rows.map((row) => [row.id, row]));

  const home = country(sources.country)?.currency;
  const listed = new Map(sources.listPrices.map((row) => [row.master_code_id, row.unit_price]));
  const price = (row: { id: string; unit_price: string }) => {
    if (!input.show_price) return null;
    if (input.currency === null) return priceText(row.unit_price, home);
    const entry = listed.get(row.id);
    if (entry !== undefined) return priceText(entry, input.currency);
    return input.currency === home ? priceText(row.unit_price, home) : null;
  };

  const items: LabelItem[] = input.master_codes.map((entry) => {
    const row = byId.get(entry.id)!;
    return { code: row.code, name: row.name, price: price(row), copies: entry.copies };
  });
  if (input.symbology === 'code128') {
    const unprintable = items.find((item) => !isCode128Text(item.code));
    if (unprintable) throw refuseLabels('NOT_ENCODABLE', { code: unprintable.code });
  }

  return renderLabels(
    {
      paper: input.paper,
      widthMm: input.width_mm,
      heightMm: input.height_mm,
      orientation: input.orientation,
      symbology: input.symbology,
      perSheet: input.per_sheet,
      showName: input.show_name,
      showPrice: input.show_price,
    },
    items,
  );
}
