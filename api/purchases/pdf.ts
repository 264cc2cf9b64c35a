import { refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { type Language, translate } from '@api/i18n';
import { IdParams } from '@api/ids';
import { fontFile, LABEL_FONTS, type Script, scriptOf, scriptRuns } from '@api/inventory/labels';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import PDFDocument from 'pdfkit';
import { z } from 'zod';
import { commandStore, type PurchaseDeps, tags, viewing } from './common';
import { type PurchaseDetail, purchaseDetail } from './documents';

/**
 * A purchase order as a PDF to send the supplier (A4): the PO number, date and status, the supplier and the
 * warehouse to deliver to, reference and estimated arrival, the items with quantities, unit costs and amounts, the
 * subtotal, discount and total, and the note. Labels are in the caller's language; text in any script is written in
 * the Noto font for it, found as the barcode labels find theirs (api/inventory/labels.ts).
 */

type Doc = InstanceType<typeof PDFDocument>;

const PAGE = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const BASELINE_EM = 0.85;

const oneLine = (value: string) =>
  value
    .normalize('NFC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();

const selectFont = (doc: Doc, script: Script) => doc.font(LABEL_FONTS[script].name);

function textWidth(doc: Doc, value: string): number {
  let width = 0;
  for (const run of scriptRuns(value)) width += selectFont(doc, run.script).widthOfString(run.text);
  return width;
}

/** `value` cut with "…" to fit `width` at the current size. */
function fitText(doc: Doc, value: string, width: number): string {
  if (textWidth(doc, value) <= width) return value;
  const characters = [...value];
  let count = characters.length;
  while (count > 0 && textWidth(doc, `${characters.slice(0, count).join('').trimEnd()}…`) > width) count--;
  return count === 0 ? '' : `${characters.slice(0, count).join('').trimEnd()}…`;
}

/** One line of text with its top at `top`, run after run each in its own font; right-aligned to `x` when asked. */
function write(
  doc: Doc,
  raw: string,
  x: number,
  top: number,
  opts: { size?: number; width?: number; align?: 'left' | 'right' } = {},
): void {
  const size = opts.size ?? 9;
  doc.fontSize(size);
  let value = oneLine(raw);
  if (opts.width !== undefined) value = fitText(doc, value, opts.width);
  let left = opts.align === 'right' ? x - textWidth(doc, value) : x;
  const baseline = top + size * BASELINE_EM;
  for (const run of scriptRuns(value)) {
    selectFont(doc, run.script);
    doc.text(run.text, left, baseline, { lineBreak: false, baseline: 'alphabetic' });
    left += doc.widthOfString(run.text);
  }
}

const COLUMNS = [
  { key: 'no', x: MARGIN, width: 22, align: 'left' },
  { key: 'code', x: MARGIN + 24, width: 100, align: 'left' },
  { key: 'name', x: MARGIN + 128, width: 187, align: 'left' },
  { key: 'quantity', x: MARGIN + 375, width: 55, align: 'right' },
  { key: 'unit_cost', x: MARGIN + 445, width: 60, align: 'right' },
  { key: 'amount', x: PAGE.width - MARGIN, width: 70, align: 'right' },
] as const;

/** Amounts shown with two decimals, as a price is written (the order keeps four). */
const money = (amount: string) => {
  const [whole = '0', fraction = ''] = amount.split('.');
  const cents = Math.round(Number(`0.${fraction || '0'}`) * 100);
  const carry = cents === 100;
  const wholePart = carry ? (BigInt(whole) + 1n).toString() : whole;
  return `${wholePart.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${String(carry ? 0 : cents).padStart(2, '0')}`;
};

export async function renderPurchasePdf(
  order: PurchaseDetail,
  language: Language,
  currency: string,
): Promise<Buffer> {
  const label = (key: string, params: Record<string, string | number> = {}) =>
    translate(language, `purchases.pdf.${key}`, params);
  const statusLabel = translate(language, `purchases.status.${order.status}`);
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
  const scripts = new Set<Script>(['latin']);
  for (const char of texts.join('')) scripts.add(scriptOf(char.codePointAt(0)!));
  const fonts = await Promise.all(
    [...scripts].map(async (script) => [script, await fontFile(script)] as const),
  );

  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: `${label('title')} ${order.po_number}`, Creator: 'Kedai' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const [script, bytes] of fonts) doc.registerFont(LABEL_FONTS[script].name, bytes);

  const right = PAGE.width - MARGIN;
  const tableHeader = (top: number) => {
    doc
      .rect(MARGIN, top - 3, right - MARGIN, 16)
      .fill('#eeeeee')
      .fillColor('black');
    for (const column of COLUMNS) {
      write(doc, label(column.key), column.x, top, { size: 8, width: column.width, align: column.align });
    }
    return top + 18;
  };

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

  y = tableHeader(y);
  order.lines.forEach((line, index) => {
    if (y > PAGE.height - MARGIN - 80) {
      doc.addPage({ size: 'A4', margin: MARGIN });
      y = tableHeader(MARGIN);
    }
    const cells: Record<(typeof COLUMNS)[number]['key'], string> = {
      no: String(index + 1),
      code: line.master_code.code ?? '',
      name: line.master_code.name ?? '',
      quantity: String(line.quantity),
      unit_cost: money(line.unit_cost),
      amount: money(line.line_total),
    };
    for (const column of COLUMNS) {
      write(doc, cells[column.key], column.x, y, { width: column.width, align: column.align });
    }
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

export const purchasePdfRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  app.get(
    '/api/purchases/:id/pdf',
    {
      config: viewing,
      schema: {
        tags,
        summary: "The purchase order as a PDF (labels in the caller's language)",
        params: IdParams,
        response: {
          200: {
            description: 'The order; `content-disposition: inline; filename="<PO number>.pdf"`',
            content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
          },
          ...refusals,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const order = await purchaseDetail(deps.db, commandStore(deps.store), session, request.params.id);
      const supplier = await deps.db
        .selectFrom('suppliers')
        .select('currency')
        .where('tenant_id', '=', session.tenantId)
        .where('id', '=', order.supplier.id)
        .executeTakeFirst();
      const pdf = await renderPurchasePdf(order, request.language, supplier?.currency ?? '');
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', `inline; filename="${order.po_number}.pdf"`)
        .send(pdf);
    },
  );
};
