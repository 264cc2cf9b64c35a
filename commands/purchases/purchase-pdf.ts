import type { PurchaseDetail } from '@api/contracts/purchases';
import { shownAmount } from '@domain/purchases/money';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { openPdf, A4 as PAGE, tableHeader, tableRow, writeLine as write } from '@infra/pdf/document';
import { supplierRow } from '@projections/suppliers.queries';
import { purchaseDetail, type Viewer } from './details';

/**
 * A purchase order as a PDF to send the supplier (A4): the PO number, date and status, the supplier and the
 * warehouse to deliver to, reference and estimated arrival, the items with quantities, unit costs and amounts, the
 * subtotal, discount and total, and the note. Labels are in the caller's language; text in any script is written in
 * the Noto font for it, found as the barcode labels find theirs (api/inventory/labels.ts). The route
 * (api/purchases/pdf.ts) answers it.
 */

const MARGIN = 40;

const COLUMNS = [
  { key: 'no', x: MARGIN, width: 22, align: 'left' },
  { key: 'code', x: MARGIN + 24, width: 100, align: 'left' },
  { key: 'name', x: MARGIN + 128, width: 187, align: 'left' },
  { key: 'quantity', x: MARGIN + 375, width: 55, align: 'right' },
  { key: 'unit_cost', x: MARGIN + 445, width: 60, align: 'right' },
  { key: 'amount', x: PAGE.width - MARGIN, width: 70, align: 'right' },
] as const;

/** Amounts shown with two decimals, as a price is written (the order keeps four). */
const money = shownAmount;

/** The caller's words for a message key (`purchases.pdf.*`, `purchases.status.*`). */
export type Translate = (key: string, params?: Record<string, string | number>) => string;

export async function renderPurchasePdf(
  order: PurchaseDetail,
  translate: Translate,
  currency: string,
): Promise<Buffer> {
  const label = (key: string, params: Record<string, string | number> = {}) =>
    translate(`purchases.pdf.${key}`, params);
  const statusLabel = translate(`purchases.status.${order.status}`);
  const texts = [
    label('title'),
    statusLabel,
    ...COLUMNS.map((column) => label(column.key)),
    label('supplier'),
    label('deliver_to'),
    label('reference'),
    label('date'),
    label('estimated_arrival'),
    label('subtotal'),
    label('discount'),
    label('total'),
    label('note'),
    order.supplier.name ?? '',
    order.supplier.company ?? '',
    order.warehouse.name ?? '',
    order.reference,
    order.note,
    ...order.lines.flatMap((line) => [line.master_code.code ?? '', line.master_code.name ?? '']),
  ];
  const { doc, finished } = await openPdf({
    margin: MARGIN,
    title: `${label('title')} ${order.po_number}`,
    texts,
  });

  const right = PAGE.width - MARGIN;
  doc.addPage({ size: 'A4', margin: MARGIN });
  doc.fillColor('black');
  write(doc, label('title'), MARGIN, MARGIN, { size: 18 });
  write(doc, order.po_number, right, MARGIN, { size: 14, align: 'right' });
  write(doc, `${label('date')}: ${order.date}`, right, MARGIN + 20, { align: 'right' });
  write(doc, statusLabel, right, MARGIN + 32, { align: 'right' });

  let y = MARGIN + 60;
  const half = (right - MARGIN) / 2;
  write(doc, label('supplier'), MARGIN, y, { size: 8 });
  write(doc, label('deliver_to'), MARGIN + half, y, { size: 8 });
  y += 12;
  const supplierLines = [
    order.supplier.name ?? '',
    order.supplier.company ?? '',
    order.supplier.code ?? '',
  ].filter((line) => line !== '');
  const deliverLines = [order.warehouse.name ?? '', order.warehouse.code ?? ''].filter((line) => line !== '');
  for (let index = 0; index < Math.max(supplierLines.length, deliverLines.length); index++) {
    if (supplierLines[index]) write(doc, supplierLines[index]!, MARGIN, y, { width: half - 10 });
    if (deliverLines[index]) write(doc, deliverLines[index]!, MARGIN + half, y, { width: half - 10 });
    y += 12;
  }
  y += 6;
  if (order.reference) {
    write(doc, `${label('reference')}: ${order.reference}`, MARGIN, y, { width: half - 10 });
  }
  if (order.estimated_arrival) {
    write(doc, `${label('estimated_arrival')}: ${order.estimated_arrival}`, MARGIN + half, y, {
      width: half - 10,
    });
  }
  y += 24;

  y = tableHeader(doc, COLUMNS, label, y, MARGIN, right);
  order.lines.forEach((line, index) => {
    if (y > PAGE.height - MARGIN - 80) {
      doc.addPage({ size: 'A4', margin: MARGIN });
      y = tableHeader(doc, COLUMNS, label, MARGIN, MARGIN, right);
    }
    const cells: Record<(typeof COLUMNS)[number]['key'], string> = {
      no: String(index + 1),
      code: line.master_code.code ?? '',
      name: line.master_code.name ?? '',
      quantity: String(line.quantity),
      unit_cost: money(line.unit_cost),
      amount: money(line.line_total),
    };
    tableRow(doc, COLUMNS, cells, y);
    y += 14;
  });
  doc.moveTo(MARGIN, y).lineTo(right, y).lineWidth(0.5).stroke();
  y += 8;
  const totals: [string, string][] = [
    [label('subtotal'), money(order.subtotal)],
    [label('discount'), `-${money(order.discount)}`],
    [currency ? `${label('total')} (${currency})` : label('total'), money(order.total)],
  ];
  for (const [name, value] of totals) {
    write(doc, name, right - 160, y, { width: 90 });
    write(doc, value, right, y, { align: 'right' });
    y += 14;
  }
  if (order.note) {
    y += 10;
    write(doc, `${label('note')}: ${order.note}`, MARGIN, y, { width: right - MARGIN });
  }
  doc.end();
  return finished;
}

/** The caller's order `purchaseId` (404 otherwise) as a PDF, in the supplier's currency, and its file name. */
export async function purchaseOrderPdf(
  deps: { db: Db; store: EventStore },
  viewer: Viewer,
  purchaseId: string,
  translate: Translate,
) {
  const order = await purchaseDetail(deps, viewer, purchaseId);
  const supplier = await supplierRow(deps.db, viewer.tenantId, order.supplier.id);
  const pdf = await renderPurchasePdf(order, translate, supplier?.currency ?? '');
  return { pdf, filename: `${order.po_number}.pdf` };
}
