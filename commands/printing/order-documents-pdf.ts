import { isCode128Text, openImage, placeImage } from '@commands/printing/labels';
import { addressLines } from '@domain/printing/address';
import type {
  AddressDisplay,
  CompanyDetails,
  DocumentSettings,
  DrawnDocument,
  FontSize,
} from '@domain/printing/settings';
import { shownAmount } from '@domain/purchases/money';
import {
  type Doc,
  oneLine,
  openPdf,
  A4 as PAGE,
  textWidth,
  type WriteOptions,
  writeLine,
} from '@infra/pdf/document';
import bwipjs from 'bwip-js/node';
import type { OrderView } from './order-view';

/**
 * The order documents Kedai draws, as one A4 PDF for one order or many (each order on its own page or pages):
 *
 * - INV invoice: bill-to and ship-to, the lines with unit prices and amounts, subtotal, shipping fee and total;
 * - PL packing list: the lines with variations, rack locations and quantities, the total quantity, and the buyer's
 *   first and last name;
 * - CL check list: a checkbox per line for the packer, and a "checked by" line;
 * - DO delivery order: where it ships from (the order's warehouse) and to, the lines, and a receiver's signature.
 *
 * Every document carries the company details, the document's title, the order number, the store and marketplace,
 * the order date, payment and shipping provider, and the tracking number as a Code 128 barcode with its text. The
 * print settings choose where the logo goes (hidden, top left, top right, bottom middle of each page), which
 * address blocks show (billing only, shipping only, both — a marketplace gives one address, so both show it) and
 * the font size (small, medium, large). A free gift is marked as one under its item, and a line's recorded bin
 * and serial numbers are written there too, on every document. Labels are in the caller's language; text in any script is written in the
 * Noto font for it (commands/printing/labels.ts), so Chinese, Thai and Vietnamese names print.
 */

export interface PrintableLine {
  sku: string;
  sellerSku: string;
  name: string;
  variation?: string;
  quantity: number;
  unitPrice: string;
  gift?: boolean;
  binNumber?: string;
  serialNumbers?: readonly string[];
  /** The racks the item is kept on in the order's warehouse. */
  rackLocations?: readonly string[];
}

export interface PrintableOrder
  extends Pick<
    OrderView,
    | 'orderNumber'
    | 'platform'
    | 'orderedAt'
    | 'paymentMethod'
    | 'currency'
    | 'totalAmount'
    | 'shippingFee'
    | 'buyerUsername'
    | 'buyerRemark'
    | 'address'
  > {
  trackingNumber: string | null;
  storeName: string;
  cod: boolean;
  shippingProvider: string | null;
  lines: PrintableLine[];
  /** The buyer's first and last name. */
  firstName?: string;
  lastName?: string;
  /** Where the order ships from (its warehouse). */
  warehouse: { name: string; address: string; phone: string } | null;
}

export interface RenderOptions {
  settings: DocumentSettings;
  company: CompanyDetails;
  logo: Buffer | null;
  /** The caller's language (its dates) and its words for the labels under `printing.pdf`. */
  language: string;
  label: (key: string, params?: Record<string, string | number>) => string;
  /** The time zone dates are shown in. */
  timeZone?: string;
}

const MARGIN = 36;
const RIGHT = PAGE.width - MARGIN;
export const BASE_SIZES: Record<FontSize, number> = { small: 8, medium: 10, large: 12 };
const LOGO_BOX = { width: 120, height: 48 };

/** One line of text with its top at `top`, run after run in its own font (precomposed Latin); cut with "…" to `width`. */
const write = (
  doc: Doc,
  raw: string,
  x: number,
  top: number,
  opts: Omit<WriteOptions, 'size' | 'precomposed'> & { size: number },
) => writeLine(doc, raw, x, top, { ...opts, precomposed: true });

/** Text broken into lines of at most `width` (by words, or by characters for scripts written without spaces). */
function wrap(doc: Doc, raw: string, width: number, size: number): string[] {
  doc.fontSize(size);
  const value = oneLine(raw);
  if (value === '') return [];
  const lines: string[] = [];
  let current = '';
  for (const piece of value.match(/\S+\s*|\s+/g) ?? []) {
    const candidate = current + piece;
    if (textWidth(doc, candidate.trimEnd()) <= width) {
      current = candidate;
      continue;
    }
    if (current.trim() !== '') lines.push(current.trimEnd());
    current = '';
    // A piece wider than the line (a long CJK or Thai run): by characters.
    for (const char of piece) {
      if (textWidth(doc, (current + char).trimEnd()) > width && current.trim() !== '') {
        lines.push(current.trimEnd());
        current = '';
      }
      current += char;
    }
  }
  if (current.trim() !== '') lines.push(current.trimEnd());
  return lines;
}

const money = shownAmount;

const cents = (amount: string) => {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = amount.replace(/^-/, '').split('.');
  const value = BigInt(whole) * 100n + BigInt(`${fraction}00`.slice(0, 2));
  return negative ? -value : value;
};
const fromCents = (value: bigint) => {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  return `${negative ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
};

interface Column {
  key: string;
  width: number;
  align: 'left' | 'right' | 'center';
}

const COLUMNS: Record<DrawnDocument, Column[]> = {
  INV: [
    { key: 'no', width: 24, align: 'left' },
    { key: 'sku', width: 100, align: 'left' },
    { key: 'item', width: 207, align: 'left' },
    { key: 'quantity', width: 50, align: 'right' },
    { key: 'unit_price', width: 70, align: 'right' },
    { key: 'amount', width: 72, align: 'right' },
  ],
  PL: [
    { key: 'no', width: 24, align: 'left' },
    { key: 'sku', width: 100, align: 'left' },
    { key: 'item', width: 177, align: 'left' },
    { key: 'variation', width: 90, align: 'left' },
    { key: 'location', width: 80, align: 'left' },
    { key: 'quantity', width: 52, align: 'right' },
  ],
  CL: [
    { key: 'check', width: 30, align: 'center' },
    { key: 'no', width: 24, align: 'left' },
    { key: 'sku', width: 110, align: 'left' },
    { key: 'item', width: 257, align: 'left' },
    { key: 'quantity', width: 50, align: 'right' },
    { key: 'checked_quantity', width: 52, align: 'right' },
  ],
  DO: [
    { key: 'no', width: 24, align: 'left' },
    { key: 'sku', width: 120, align: 'left' },
    { key: 'item', width: 257, align: 'left' },
    { key: 'variation', width: 70, align: 'left' },
    { key: 'quantity', width: 52, align: 'right' },
  ],
};

const TITLES: Record<DrawnDocument, string> = {
  INV: 'invoice',
  PL: 'packing_list',
  CL: 'check_list',
  DO: 'delivery_order',
};

export async function renderOrderDocuments(
  document: DrawnDocument,
  orders: readonly PrintableOrder[],
  options: RenderOptions,
): Promise<Buffer> {
  const { settings, company, language, label } = options;
  const size = BASE_SIZES[settings.fontSize];
  const small = size - 1.5;
  const lineHeight = size * 1.45;
  const columns = COLUMNS[document];
  const logo = settings.logoPosition === 'hidden' ? null : options.logo;
  const dateFormat = new Intl.DateTimeFormat(
    language === 'zh-cn' ? 'zh-CN' : language === 'th-th' ? 'th-TH' : 'en-GB',
    {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: options.timeZone ?? 'Asia/Kuala_Lumpur',
    },
  );
  const when = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : dateFormat.format(date);
  };

  // Every script any text will use, so its font is registered (and embedded) once.
  const texts: string[] = [
    ...Object.values(TITLES).map((key) => label(key)),
    ...columns.map((column) => label(`columns.${column.key}`)),
    ...[
      'order_number',
      'tracking_number',
      'order_date',
      'store',
      'payment',
      'cod',
      'shipping_provider',
      'bill_to',
      'ship_to',
      'deliver_from',
      'subtotal',
      'shipping_fee',
      'total',
      'total_quantity',
      'buyer_remark',
      'checked_by',
      'received_by',
      'signature',
      'date',
      'registration_no',
      'page',
      'buyer',
      'no_tracking',
      'first_name',
      'last_name',
      'gift',
      'bin',
      'serials',
    ].map((key) => label(key, { page: 1 })),
    ...Object.values(company),
    ...orders.flatMap((order) => [
      order.orderNumber,
      order.trackingNumber ?? '',
      order.storeName,
      order.platform,
      order.paymentMethod,
      order.shippingProvider ?? '',
      order.buyerUsername ?? '',
      order.buyerRemark ?? '',
      ...Object.values(order.address).map((value) => String(value ?? '')),
      ...(order.warehouse ? Object.values(order.warehouse) : []),
      order.firstName ?? '',
      order.lastName ?? '',
      ...order.lines.flatMap((line) => [
        line.sku,
        line.sellerSku,
        line.name,
        line.variation ?? '',
        line.binNumber ?? '',
        ...(line.serialNumbers ?? []),
        ...(line.rackLocations ?? []),
      ]),
      when(order.orderedAt),
    ]),
  ];
  const barcodes = new Map<string, Buffer>();
  for (const order of orders) {
    const tracking = order.trackingNumber;
    if (tracking && isCode128Text(tracking) && !barcodes.has(tracking)) {
      barcodes.set(
        tracking,
        await bwipjs.toBuffer({
          bcid: 'code128',
          text: tracking,
          scaleX: 2,
          scaleY: 2,
          height: 10,
          paddingwidth: 10,
          backgroundcolor: 'FFFFFF',
          includetext: false,
        }),
      );
    }
  }

  const { doc, finished } = await openPdf({
    margin: MARGIN,
    title:
      orders.length === 1 ? `${label(TITLES[document])} ${orders[0]!.orderNumber}` : label(TITLES[document]),
    texts,
  });
  // The logo once: placed again on every page, it is referenced, not embedded anew.
  const logoImage = logo ? openImage(doc, logo) : null;
  /** Places the logo top left, top right or bottom middle of the page (within the margins); answers its size. */
  const placeLogo = (where: 'top_left' | 'top_right' | 'bottom_middle') => {
    if (!logoImage) return { width: 0, height: 0 };
    const scale = Math.min(LOGO_BOX.width / logoImage.width, LOGO_BOX.height / logoImage.height, 1);
    const width = logoImage.width * scale;
    const height = logoImage.height * scale;
    const left =
      where === 'top_right' ? RIGHT - width : where === 'bottom_middle' ? (PAGE.width - width) / 2 : MARGIN;
    const top = where === 'bottom_middle' ? PAGE.height - MARGIN - height : MARGIN;
    placeImage(doc, logoImage, left, top, width, height);
    return { width, height };
  };
  const bottomLimit =
    PAGE.height -
    MARGIN -
    (settings.logoPosition === 'bottom_middle' && logoImage ? LOGO_BOX.height + 8 : 0) -
    14;

  const newPage = () => {
    doc.addPage({ size: 'A4', margin: MARGIN });
    doc.fillColor('black');
    if (settings.logoPosition === 'bottom_middle' && logoImage) {
      placeLogo('bottom_middle');
    }
  };

  const tableHeader = (top: number) => {
    doc
      .rect(MARGIN, top - 3, RIGHT - MARGIN, small + 8)
      .fill('#eeeeee')
      .fillColor('black');
    let x = MARGIN;
    for (const column of columns) {
      const anchor = column.align === 'right' ? x + column.width - 4 : x;
      write(doc, label(`columns.${column.key}`), anchor, top, {
        size: small,
        width: column.width - 4,
        align: column.align,
      });
      x += column.width;
    }
    return top + small + 10;
  };

  /** What a line says under its item: a free gift, its bin number and serial numbers ('' when none). */
  const packingNote = (line: PrintableLine) =>
    [
      line.gift ? label('gift') : '',
      line.binNumber ? `${label('bin')}: ${line.binNumber}` : '',
      line.serialNumbers?.length ? `${label('serials')}: ${line.serialNumbers.join(', ')}` : '',
    ]
      .filter(Boolean)
      .join(' · ');

  for (const order of orders) {
    newPage();
    let pageOfOrder = 1;
    const footer = () => {
      write(
        doc,
        `${order.orderNumber} · ${label('page', { page: pageOfOrder })}`,
        RIGHT,
        PAGE.height - MARGIN - small,
        { size: small - 1, align: 'right' },
      );
    };
    /** The order goes on over a new page: this one's footer, the next one's start; answers where text goes on. */
    const breakPage = (start: () => number) => {
      footer();
      newPage();
      pageOfOrder++;
      return start();
    };

    // ---- header: logo, company, title ----
    let top = MARGIN;
    let companyLeft = MARGIN;
    let titleTop = MARGIN;
    if (settings.logoPosition === 'top_left' && logoImage) {
      const placed = placeLogo('top_left');
      companyLeft = MARGIN + placed.width + 10;
    } else if (settings.logoPosition === 'top_right' && logoImage) {
      const placed = placeLogo('top_right');
      titleTop = MARGIN + placed.height + 6;
    }
    const half = (RIGHT - MARGIN) / 2;
    let companyY = top;
    write(doc, company.name, companyLeft, companyY, { size: size + 3, width: MARGIN + half - companyLeft });
    companyY += (size + 3) * 1.4;
    for (const line of [
      ...wrap(doc, company.address, MARGIN + half - companyLeft, small),
      company.phone,
      company.email,
      company.registrationNo ? `${label('registration_no')}: ${company.registrationNo}` : '',
    ]) {
      if (!line) continue;
      write(doc, line, companyLeft, companyY, { size: small, width: MARGIN + half - companyLeft });
      companyY += small * 1.4;
    }

    write(doc, label(TITLES[document]), RIGHT, titleTop, { size: size + 8, align: 'right' });
    let titleY = titleTop + (size + 8) * 1.35;
    write(doc, `${label('order_number')}: ${order.orderNumber}`, RIGHT, titleY, { size, align: 'right' });
    titleY += lineHeight;
    write(doc, `${label('order_date')}: ${when(order.orderedAt)}`, RIGHT, titleY, {
      size: small,
      align: 'right',
    });
    titleY += small * 1.5;
    const barcode = order.trackingNumber ? barcodes.get(order.trackingNumber) : undefined;
    if (barcode) {
      const image = openImage(doc, barcode);
      const width = Math.min(200, image.width / 2);
      const height = 36;
      placeImage(doc, image, RIGHT - width, titleY, width, height);
      titleY += height + 2;
    }
    write(
      doc,
      `${label('tracking_number')}: ${order.trackingNumber ?? label('no_tracking')}`,
      RIGHT,
      titleY,
      { size, align: 'right' },
    );
    titleY += lineHeight;

    top =
      Math.max(
        companyY,
        titleY,
        logoImage && settings.logoPosition === 'top_left' ? MARGIN + LOGO_BOX.height : 0,
      ) + 10;
    doc.moveTo(MARGIN, top).lineTo(RIGHT, top).lineWidth(0.5).stroke();
    top += 8;

    // ---- order facts ----
    const facts: [string, string][] = [
      [label('store'), `${order.storeName} (${order.platform})`],
      [label('payment'), order.cod ? `${order.paymentMethod} · ${label('cod')}` : order.paymentMethod],
      [label('shipping_provider'), order.shippingProvider ?? ''],
      [label('buyer'), order.buyerUsername ?? ''],
      ...(document === 'PL'
        ? ([
            [label('first_name'), order.firstName ?? ''],
            [label('last_name'), order.lastName ?? ''],
          ] as [string, string][])
        : []),
    ];
    let factY = top;
    facts.forEach(([name, value], index) => {
      const x = index % 2 === 0 ? MARGIN : MARGIN + half;
      write(doc, `${name}: ${value}`, x, factY, { size: small, width: half - 8 });
      if (index % 2 === 1) factY += small * 1.6;
    });
    top = factY + 8;

    // ---- addresses ----
    const blocks: { title: string; lines: string[] }[] = [];
    if (document === 'DO' && order.warehouse) {
      blocks.push({
        title: label('deliver_from'),
        lines: [order.warehouse.name, order.warehouse.address, order.warehouse.phone].filter(Boolean),
      });
    }
    const display: AddressDisplay = settings.addressDisplay;
    if (display === 'billing' || display === 'both') {
      blocks.push({ title: label('bill_to'), lines: addressLines(order.address) });
    }
    if (display === 'shipping' || display === 'both') {
      blocks.push({ title: label('ship_to'), lines: addressLines(order.address) });
    }
    const blockWidth = (RIGHT - MARGIN) / Math.max(blocks.length, 1);
    let blocksBottom = top;
    blocks.forEach((block, index) => {
      const x = MARGIN + index * blockWidth;
      let y = top;
      write(doc, block.title, x, y, { size: small, width: blockWidth - 10 });
      y += small * 1.6;
      for (const line of block.lines.flatMap((text) => wrap(doc, text, blockWidth - 10, size))) {
        write(doc, line, x, y, { size, width: blockWidth - 10 });
        y += lineHeight;
      }
      blocksBottom = Math.max(blocksBottom, y);
    });
    top = blocksBottom + 10;

    // ---- lines ----
    top = tableHeader(top);
    let subtotal = 0n;
    let quantity = 0;
    order.lines.forEach((line, index) => {
      const itemColumn = columns.find((column) => column.key === 'item')!;
      const itemText = document === 'INV' && line.variation ? `${line.name} (${line.variation})` : line.name;
      const itemLines = wrap(doc, itemText, itemColumn.width - 6, size).slice(0, 3);
      const noteLines = wrap(doc, packingNote(line), itemColumn.width - 6, small).slice(0, 4);
      const rowHeight = Math.max(1, itemLines.length) * lineHeight + noteLines.length * small * 1.4 + 2;
      if (top + rowHeight > bottomLimit) top = breakPage(() => tableHeader(MARGIN));
      const amount = cents(line.unitPrice) * BigInt(line.quantity);
      subtotal += amount;
      quantity += line.quantity;
      const cells: Record<string, string> = {
        no: String(index + 1),
        sku: line.sellerSku || line.sku,
        variation: line.variation ?? '',
        quantity: String(line.quantity),
        unit_price: money(line.unitPrice),
        amount: money(fromCents(amount)),
        checked_quantity: '',
        location: (line.rackLocations ?? []).join(', '),
      };
      let x = MARGIN;
      for (const column of columns) {
        if (column.key === 'check') {
          doc
            .rect(x + (column.width - size) / 2, top, size, size)
            .lineWidth(0.8)
            .stroke();
        } else if (column.key === 'item') {
          itemLines.forEach((text, lineIndex) => {
            write(doc, text, x, top + lineIndex * lineHeight, { size, width: column.width - 6 });
          });
          const notesTop = top + Math.max(1, itemLines.length) * lineHeight;
          noteLines.forEach((text, lineIndex) => {
            write(doc, text, x, notesTop + lineIndex * small * 1.4, { size: small, width: column.width - 6 });
          });
        } else if (column.key === 'checked_quantity') {
          doc
            .moveTo(x + 8, top + size)
            .lineTo(x + column.width - 4, top + size)
            .lineWidth(0.5)
            .stroke();
        } else {
          const anchor = column.align === 'right' ? x + column.width - 4 : x;
          write(doc, cells[column.key] ?? '', anchor, top, {
            size,
            width: column.width - 6,
            align: column.align,
          });
        }
        x += column.width;
      }
      top += rowHeight;
    });
    doc.moveTo(MARGIN, top).lineTo(RIGHT, top).lineWidth(0.5).stroke();
    top += 8;

    // ---- totals and signatures ----
    const ensure = (height: number) => {
      if (top + height > bottomLimit) top = breakPage(() => MARGIN);
    };
    if (document === 'INV') {
      const shipping = order.shippingFee ?? '0.00';
      const totals: [string, string][] = [
        [label('subtotal'), money(fromCents(subtotal))],
        [label('shipping_fee'), money(shipping)],
        [`${label('total')} (${order.currency})`, money(order.totalAmount)],
      ];
      ensure(totals.length * lineHeight + 4);
      for (const [name, value] of totals) {
        write(doc, name, RIGHT - 200, top, { size, width: 120 });
        write(doc, value, RIGHT, top, { size, align: 'right' });
        top += lineHeight;
      }
    } else {
      ensure(lineHeight + 4);
      write(doc, `${label('total_quantity')}: ${quantity}`, RIGHT, top, { size, align: 'right' });
      top += lineHeight;
    }
    if (order.buyerRemark) {
      const remark = wrap(doc, `${label('buyer_remark')}: ${order.buyerRemark}`, RIGHT - MARGIN, small);
      ensure(remark.length * small * 1.5 + 6);
      top += 6;
      for (const line of remark) {
        write(doc, line, MARGIN, top, { size: small, width: RIGHT - MARGIN });
        top += small * 1.5;
      }
    }
    if (document === 'CL' || document === 'DO') {
      ensure(lineHeight * 3 + 20);
      top += 24;
      const signer = document === 'CL' ? label('checked_by') : label('received_by');
      write(doc, `${signer}: ________________________`, MARGIN, top, { size });
      write(doc, `${label('date')}: ______________`, RIGHT, top, { size, align: 'right' });
      if (document === 'DO') {
        top += lineHeight * 2;
        write(doc, `${label('signature')}: ________________________`, MARGIN, top, { size });
      }
    }
    footer();
  }
  doc.end();
  return finished;
}
