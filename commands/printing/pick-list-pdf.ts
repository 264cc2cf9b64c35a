import type { PickListAnswer } from '@api/contracts/batches';
import type { BatchReadDeps } from '@commands/batches/detail';
import { pickListOfBatch } from '@commands/batches/pick-list';
import type { PickListFilter } from '@domain/batches/pick-list';
import { type Language, translate } from '@infra/i18n';
import { openPdf, A4 as PAGE, tableHeader, tableRow, writeLine as write } from '@infra/pdf/document';

/**
 * A batch's pick list as a PDF to print: A4, labels in the caller's language (`label` translates the keys under
 * `batch.pick_pdf`), text in any script in its Noto font.
 */

export type PickListLabel = (key: string, params?: Record<string, string | number>) => string;

const MARGIN = 36;

const COLUMNS = [
  { key: 'no', x: MARGIN, width: 22, align: 'left' },
  { key: 'location', x: MARGIN + 24, width: 80, align: 'left' },
  { key: 'code', x: MARGIN + 108, width: 90, align: 'left' },
  { key: 'sku', x: MARGIN + 202, width: 90, align: 'left' },
  { key: 'name', x: MARGIN + 296, width: 150, align: 'left' },
  { key: 'quantity', x: MARGIN + 490, width: 40, align: 'right' },
  { key: 'orders', x: PAGE.width - MARGIN, width: 50, align: 'right' },
] as const;

/** What a row says beside its item: a free gift, its bin numbers and serial numbers ('' when none). */
function packingNote(row: PickListAnswer['rows'][number], label: PickListLabel): string {
  return [
    row.gift ? label('gift') : '',
    row.bin_numbers.length > 0 ? `${label('bin')}: ${row.bin_numbers.join(', ')}` : '',
    row.serial_numbers.length > 0 ? `${label('serials')}: ${row.serial_numbers.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

export async function renderPickListPdf(list: PickListAnswer, label: PickListLabel): Promise<Buffer> {
  const perOrder = list.filter === 'all';
  const heading = (key: (typeof COLUMNS)[number]['key']) =>
    key === 'orders' && perOrder ? label('order') : label(key);
  const texts = [
    label('title'),
    label(`filter_${list.filter}`),
    ...COLUMNS.map((column) => heading(column.key)),
    list.batch.label,
    list.batch.name,
    list.batch.picker ?? '',
    ...list.rows.flatMap((row) => [
      row.name,
      row.code ?? '',
      row.seller_sku,
      ...row.locations,
      row.order_number ?? '',
      packingNote(row, label),
    ]),
  ];
  const { doc, finished } = await openPdf({
    margin: MARGIN,
    title: `${label('title')} ${list.batch.label}`,
    texts,
  });

  const right = PAGE.width - MARGIN;
  doc.addPage({ size: 'A4', margin: MARGIN });
  doc.fillColor('black');
  write(doc, label('title'), MARGIN, MARGIN, { size: 18 });
  write(doc, list.batch.label, right, MARGIN, { size: 14, align: 'right' });
  write(doc, list.batch.name, right, MARGIN + 20, { align: 'right', width: 250 });
  let y = MARGIN + 40;
  write(doc, `${label('date')}: ${list.batch.date}`, MARGIN, y);
  write(doc, `${label('picker')}: ${list.batch.picker ?? '-'}`, MARGIN + 180, y, { width: 200 });
  y += 14;
  write(doc, `${label('filter')}: ${label(`filter_${list.filter}`)}`, MARGIN, y);
  write(
    doc,
    label('totals', {
      orders: label('orders_count', { count: list.order_count }),
      quantity: label('units_count', { count: list.total_quantity }),
    }),
    MARGIN + 180,
    y,
    {
      width: right - MARGIN - 180,
    },
  );
  y += 26;
  y = tableHeader(doc, COLUMNS, heading, y, MARGIN, right);
  list.rows.forEach((row, index) => {
    if (y > PAGE.height - MARGIN - 20) {
      doc.addPage({ size: 'A4', margin: MARGIN });
      y = tableHeader(doc, COLUMNS, heading, MARGIN, MARGIN, right);
    }
    const cells: Record<(typeof COLUMNS)[number]['key'], string> = {
      no: String(index + 1),
      location: row.locations.join(', '),
      code: row.code ?? '',
      sku: row.seller_sku,
      name: row.name,
      quantity: String(row.quantity),
      orders: perOrder ? (row.order_number ?? '') : String(row.order_count),
    };
    tableRow(doc, COLUMNS, cells, y);
    y += 14;
    // A gift goes in free, and a serialised item's recorded serials are checked: said under the row.
    const note = packingNote(row, label);
    if (note) {
      write(doc, note, COLUMNS[1].x, y - 3, { size: 7, width: right - COLUMNS[1].x });
      y += 10;
    }
    // A line to tick the row off against when picked.
    doc
      .moveTo(MARGIN, y - 2)
      .lineTo(right, y - 2)
      .lineWidth(0.25)
      .strokeColor('#cccccc')
      .stroke()
      .strokeColor('black');
  });
  doc.end();
  return finished;
}

/** A batch's pick list as a PDF in the caller's language, with the name of its file. */
export async function pickListPdf(
  deps: BatchReadDeps,
  tenantId: string,
  input: { batchId: string; filter: PickListFilter; language: Language },
): Promise<{ pdf: Buffer; name: string }> {
  const list = await pickListOfBatch(deps, tenantId, input.batchId, input.filter);
  const pdf = await renderPickListPdf(list, (key, params) =>
    translate(input.language, `batch.pick_pdf.${key}`, params),
  );
  return { pdf, name: `pick-list-${list.batch.label.replace(/[^\w-]/g, '_')}.pdf` };
}
