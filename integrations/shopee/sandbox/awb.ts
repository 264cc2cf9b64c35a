import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';
import type { ShippingDocumentType, ShopeeOrder } from '../schemas';
import { MYT_OFFSET_MS } from './generator';
import type { SandboxAddress } from './state';

/**
 * The air waybill the sandbox hands out from download_shipping_document: one page per order, laid out like a
 * Shopee-generated AWB. The tracking number is a Code 128 barcode with its text under it; the order number has a
 * smaller barcode of its own. Thermal types print on a 100 × 150 mm label, normal ones on A4 with the label in
 * the top-left corner. Text is in Noto Sans (embedded with its Unicode map), so it can be searched and copied.
 */

export interface AirwayBill {
  order: ShopeeOrder;
  trackingNumber: string;
  shopName: string;
  sender: SandboxAddress;
}

const mm = (value: number) => (value * 72) / 25.4;
const LABEL = { width: mm(100), height: mm(150) };
const A4 = { width: mm(210), height: mm(297) };
const MARGIN = mm(5);

const resolveFrom = createRequire(import.meta.url);
let fonts: Promise<{ regular: Buffer; bold: Buffer }> | undefined;

function loadFonts(): Promise<{ regular: Buffer; bold: Buffer }> {
  if (!fonts) {
    const dir = path.dirname(resolveFrom.resolve('@expo-google-fonts/noto-sans/package.json'));
    fonts = Promise.all([
      readFile(path.join(dir, '400Regular/NotoSans_400Regular.ttf')),
      readFile(path.join(dir, '700Bold/NotoSans_700Bold.ttf')),
    ]).then(([regular, bold]) => ({ regular, bold }));
    fonts.catch(() => {
      fonts = undefined;
    });
  }
  return fonts;
}

const code128 = (text: string, height: number) =>
  bwipjs.toBuffer({
    bcid: 'code128',
    text,
    scaleX: 3,
    scaleY: 3,
    height,
    includetext: false,
    backgroundcolor: 'FFFFFF',
  });

const mytDate = (seconds: number) => new Date(seconds * 1000 + MYT_OFFSET_MS).toISOString().slice(0, 10);
const money = (amount: number) => `RM ${amount.toFixed(2)}`;

/** `text` cut with "…" to fit `width` at the current font and size, so a line never wraps into the next. */
function clipToWidth(doc: PDFKit.PDFDocument, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 0 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

export async function renderAirwayBills(
  bills: readonly AirwayBill[],
  type: ShippingDocumentType,
): Promise<Buffer> {
  const { regular, bold } = await loadFonts();
  const page = type.startsWith('THERMAL') ? LABEL : A4;
  const doc = new PDFDocument({
    size: [page.width, page.height],
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Air waybill', Creator: 'Kedai Shopee sandbox' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('NotoSans', regular);
  doc.registerFont('NotoSans-Bold', bold);

  for (const bill of bills) {
    const [trackingBarcode, orderBarcode] = await Promise.all([
      code128(bill.trackingNumber, 14),
      code128(bill.order.order_sn, 7),
    ]);
    doc.addPage({ size: [page.width, page.height], margin: 0 });
    drawLabel(doc, bill, trackingBarcode, orderBarcode);
  }
  doc.end();
  return finished;
}

function drawLabel(
  doc: PDFKit.PDFDocument,
  bill: AirwayBill,
  trackingBarcode: Buffer,
  orderBarcode: Buffer,
): void {
  const { order } = bill;
  const left = MARGIN;
  const width = LABEL.width - 2 * MARGIN;
  const right = left + width;
  doc
    .lineWidth(1)
    .rect(left - mm(2), mm(3), width + mm(4), LABEL.height - mm(6))
    .stroke();

  let y = mm(6);
  doc.font('NotoSans-Bold').fontSize(14);
  doc.text(clipToWidth(doc, order.shipping_carrier ?? 'Shopee Xpress', width * 0.6), left, y, {
    lineBreak: false,
  });
  doc
    .font('NotoSans-Bold')
    .fontSize(14)
    .text(order.cod ? 'COD' : 'NON-COD', left + width * 0.6, y, { width: width * 0.4, align: 'right' });
  y += 24;

  doc.image(trackingBarcode, left + mm(2), y, { fit: [width - mm(4), 58], align: 'center' });
  y += 62;
  doc.font('NotoSans-Bold').fontSize(13).text(bill.trackingNumber, left, y, { width, align: 'center' });
  y += 22;
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 5;

  const address = order.recipient_address;
  doc.font('NotoSans-Bold').fontSize(9).text('To:', left, y);
  doc
    .font('NotoSans-Bold')
    .fontSize(10)
    .text(address?.name ?? '', left + 22, y, { width: width - 22 });
  y = doc.y;
  doc
    .font('NotoSans')
    .fontSize(8.5)
    .text(address?.phone ?? '', left + 22, y, { width: width - 22 });
  doc.text(address?.full_address ?? '', left + 22, doc.y, { width: width - 22 });
  y = doc.y + 2;
  doc
    .font('NotoSans-Bold')
    .fontSize(16)
    .text(`${address?.zipcode ?? ''} ${(address?.state ?? '').toUpperCase()}`, left, y, { width });
  y = doc.y + 3;
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 5;

  doc.font('NotoSans-Bold').fontSize(9).text('From:', left, y);
  doc
    .font('NotoSans')
    .fontSize(8.5)
    .text(`${bill.shopName} (${bill.sender.phone})`, left + 30, y, { width: width - 30 });
  doc.text(
    `${bill.sender.address}, ${bill.sender.zipcode} ${bill.sender.city}, ${bill.sender.state}`,
    left + 30,
    doc.y,
    {
      width: width - 30,
    },
  );
  y = doc.y + 3;
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 5;

  doc
    .font('NotoSans')
    .fontSize(8.5)
    .text(`Order ID: ${order.order_sn}`, left, y, { width: width / 2 });
  doc.image(orderBarcode, left + width / 2, y, { fit: [width / 2, 24], align: 'right' });
  y += 12;
  const weightKg = (order.order_chargeable_weight_gram ?? 0) / 1000;
  doc.text(`Weight: ${weightKg.toFixed(2)} kg`, left, y, { width: width / 2 });
  y += 12;
  doc.text(`Ship by: ${mytDate(order.ship_by_date)}`, left, y, { width: width / 2 });
  y += 14;
  if (order.cod) {
    doc
      .font('NotoSans-Bold')
      .fontSize(11)
      .text(`COD Amount: ${money(order.total_amount ?? 0)}`, left, y, { width });
    y = doc.y + 2;
  }
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 4;

  doc
    .font('NotoSans-Bold')
    .fontSize(8)
    .text('SKU', left, y, { width: width * 0.35 });
  doc.text('Product', left + width * 0.35, y, { width: width * 0.5 });
  doc.text('Qty', left + width * 0.85, y, { width: width * 0.15, align: 'right' });
  y += 11;
  const items = order.item_list ?? [];
  const shown = items.slice(0, 6);
  for (const item of shown) {
    const sku = item.model_sku || item.item_sku;
    const name = item.model_name ? `${item.item_name} (${item.model_name})` : item.item_name;
    doc.font('NotoSans').fontSize(7.5);
    doc.text(clipToWidth(doc, sku, width * 0.35 - 4), left, y, { lineBreak: false });
    doc.text(clipToWidth(doc, name, width * 0.5 - 4), left + width * 0.35, y, { lineBreak: false });
    doc.text(String(item.model_quantity_purchased), left + width * 0.85, y, {
      width: width * 0.15,
      align: 'right',
    });
    y += 10;
  }
  if (items.length > shown.length) doc.text(`+${items.length - shown.length} more`, left, y, { width });
}
