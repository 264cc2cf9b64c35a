import bwipjs from 'bwip-js/node';
import PDFDocument from 'pdfkit';

/**
 * Barcode labels as a PDF (spec §3 "Barcode printing": paper style, width, height, portrait or landscape, QR code,
 * number per sheet, continuous feed). Pure apart from the rendering libraries: bwip-js draws each barcode once as a
 * PNG, pdfkit lays the labels out.
 *
 * - On a sheet (A4, Letter) labels sit in a grid with small gaps, centred on the page; landscape turns the sheet.
 *   `perSheet` fills the first cells of that grid (row by row); more than the grid holds is refused.
 * - On a continuous roll each label is a page of exactly the label's size; landscape turns that page (height ×
 *   width, as a printer feeding the roll sideways expects) and the label is drawn turned on it, so it still reads
 *   width × height.
 * - Under the barcode: the name, the code and the price, each on one line, cut with "…" to fit. A wide QR label
 *   puts them beside the code instead. A label too short for every line keeps the code, then the price, then the name.
 */

export const PAPERS = ['a4', 'letter', 'continuous'] as const;
export type Paper = (typeof PAPERS)[number];
export const ORIENTATIONS = ['portrait', 'landscape'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
export const SYMBOLOGIES = ['code128', 'qrcode'] as const;
export type Symbology = (typeof SYMBOLOGIES)[number];

export const LABEL_LIMITS = {
  widthMm: { min: 20, max: 150 },
  heightMm: { min: 10, max: 150 },
  perSheetMax: 500,
  copiesMax: 500,
  /** Labels in one PDF, all items' copies together. */
  totalMax: 5_000,
} as const;

/** Sheet sizes in millimetres, portrait. */
export const PAPER_MM: Record<Exclude<Paper, 'continuous'>, { width: number; height: number }> = {
  a4: { width: 210, height: 297 },
  letter: { width: 215.9, height: 279.4 },
};
/** The blank border of a sheet and the gap between neighbouring labels. */
export const SHEET_MARGIN_MM = 5;
export const LABEL_GAP_MM = 2;

export const mmToPt = (mm: number) => (mm * 72) / 25.4;

export interface LabelOptions {
  paper: Paper;
  /** The label as it is read, in millimetres. */
  widthMm: number;
  heightMm: number;
  orientation: Orientation;
  symbology: Symbology;
  /** Labels per sheet on A4 or Letter; absent or null: as many as fit. Not used on a continuous roll. */
  perSheet?: number | null;
  showName: boolean;
  showPrice: boolean;
  /**
   * A TrueType/OpenType font (path or bytes) for the text. Without one the PDF's built-in Helvetica is used, which
   * only has Latin-1 (Windows-1252) characters: anything else prints as "?".
   */
  font?: string | Uint8Array;
}

export interface LabelItem {
  /** Encoded in the barcode and printed under it. Code 128 takes printable ASCII only. */
  code: string;
  name: string;
  /** The price as it should read ("MYR 12.50"); null or absent prints no price line. */
  price?: string | null;
  copies: number;
}

/** Where labels go on a page, in points (pdfkit's user space: origin top left). */
export interface PageLayout {
  pageWidth: number;
  pageHeight: number;
  columns: number;
  rows: number;
  /** Labels the page could hold. */
  capacity: number;
  /** Labels actually placed on each page. */
  perPage: number;
  /** Top-left corner of the first label and the distance to the next one across and down. */
  originX: number;
  originY: number;
  pitchX: number;
  pitchY: number;
  labelWidth: number;
  labelHeight: number;
  /** Continuous landscape: the label is drawn turned a quarter clockwise on its page. */
  turned: boolean;
}

/** Why labels cannot be laid out. */
export class LabelLayoutError extends Error {
  override name = 'LabelLayoutError';
  constructor(
    readonly problem: 'does_not_fit' | 'not_encodable',
    readonly details: Record<string, string | number>,
  ) {
    super(`${problem} ${JSON.stringify(details)}`);
  }
}

const EPSILON = 1e-9;

/** How many labels of `label` mm fit across `space` mm with gaps between them. */
export const fitCount = (space: number, label: number, gap: number) =>
  Math.max(0, Math.floor((space + gap) / (label + gap) + EPSILON));

/** The page layout for these options; throws LabelLayoutError when `perSheet` labels do not fit on the sheet. */
export function pageLayout(
  options: Pick<LabelOptions, 'paper' | 'widthMm' | 'heightMm' | 'orientation' | 'perSheet'>,
): PageLayout {
  const labelWidth = mmToPt(options.widthMm);
  const labelHeight = mmToPt(options.heightMm);
  const landscape = options.orientation === 'landscape';
  if (options.paper === 'continuous') {
    return {
      pageWidth: landscape ? labelHeight : labelWidth,
      pageHeight: landscape ? labelWidth : labelHeight,
      columns: 1,
      rows: 1,
      capacity: 1,
      perPage: 1,
      originX: 0,
      originY: 0,
      pitchX: 0,
      pitchY: 0,
      labelWidth,
      labelHeight,
      turned: landscape,
    };
  }
  const sheet = PAPER_MM[options.paper];
  const sheetWidth = landscape ? sheet.height : sheet.width;
  const sheetHeight = landscape ? sheet.width : sheet.height;
  const columns = fitCount(sheetWidth - 2 * SHEET_MARGIN_MM, options.widthMm, LABEL_GAP_MM);
  const rows = fitCount(sheetHeight - 2 * SHEET_MARGIN_MM, options.heightMm, LABEL_GAP_MM);
  const capacity = columns * rows;
  const perPage = options.perSheet ?? capacity;
  if (capacity === 0 || perPage > capacity) {
    throw new LabelLayoutError('does_not_fit', { per_sheet: perPage, capacity, columns, rows });
  }
  // The full grid, centred: a sheet printed with fewer labels still puts each where a full sheet would.
  const gridWidth = columns * options.widthMm + (columns - 1) * LABEL_GAP_MM;
  const gridHeight = rows * options.heightMm + (rows - 1) * LABEL_GAP_MM;
  return {
    pageWidth: mmToPt(sheetWidth),
    pageHeight: mmToPt(sheetHeight),
    columns,
    rows,
    capacity,
    perPage,
    originX: mmToPt((sheetWidth - gridWidth) / 2),
    originY: mmToPt((sheetHeight - gridHeight) / 2),
    pitchX: mmToPt(options.widthMm + LABEL_GAP_MM),
    pitchY: mmToPt(options.heightMm + LABEL_GAP_MM),
    labelWidth,
    labelHeight,
    turned: false,
  };
}

/** Pages the labels take. */
export const pageCount = (layout: PageLayout, labels: number) => Math.ceil(labels / layout.perPage);

/** Code 128 encodes printable ASCII here (no function characters). */
export const isCode128Text = (text: string) => /^[\x20-\x7e]+$/.test(text);

// ---- text ----

/** Characters the built-in fonts can show (Windows-1252); anything else becomes "?". */
const WIN_ANSI_EXTRA = new Set([
  0x152, 0x153, 0x160, 0x161, 0x178, 0x17d, 0x17e, 0x192, 0x2c6, 0x2dc, 0x2013, 0x2014, 0x2018, 0x2019,
  0x201a, 0x201c, 0x201d, 0x201e, 0x2020, 0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

export function winAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const point = char.codePointAt(0) ?? 0;
    if ((point >= 0x20 && point <= 0x7e) || (point >= 0xa0 && point <= 0xff) || WIN_ANSI_EXTRA.has(point))
      out += char;
    else if (point < 0x20 || (point >= 0x7f && point < 0xa0)) out += ' ';
    else out += '?';
  }
  return out;
}

/** One line: whitespace runs and control characters made single spaces. */
const oneLine = (text: string) => text.replace(/[\s\p{Cc}]+/gu, ' ').trim();

// ---- drawing ----

type Doc = InstanceType<typeof PDFDocument>;
/** pdfkit's embedded image: placed again, it is referenced again rather than embedded anew. */
type EmbeddedImage = { width: number; height: number };
const openImage = (doc: Doc, png: Buffer) =>
  (doc as unknown as { openImage(src: Buffer): EmbeddedImage }).openImage(png);
const placeImage = (doc: Doc, image: EmbeddedImage, x: number, y: number, width: number, height: number) =>
  doc.image(image as unknown as Buffer, x, y, { width, height });

interface Barcode {
  image: EmbeddedImage;
  /** Code 128: the symbol's width in modules, quiet zones included (caps how wide a module is drawn). */
  modules: number;
}

/** Module width beyond which a Code 128 symbol is not stretched further (it is centred instead). */
const MAX_MODULE_PT = mmToPt(0.6);
const CODE128_SCALE_X = 3;
const QR_SCALE = 3;

async function renderBarcode(doc: Doc, symbology: Symbology, text: string): Promise<Barcode> {
  if (symbology === 'code128') {
    if (!isCode128Text(text)) throw new LabelLayoutError('not_encodable', { code: text });
    const png = await bwipjs.toBuffer({
      bcid: 'code128',
      text,
      scaleX: CODE128_SCALE_X,
      scaleY: 1,
      height: 4,
      // The quiet zone: 10 modules on each side.
      paddingwidth: 10,
      backgroundcolor: 'FFFFFF',
      includetext: false,
    });
    const image = openImage(doc, png);
    return { image, modules: image.width / CODE128_SCALE_X };
  }
  // QR: a 4-module quiet zone (bwip-js draws a QR module 2 units wide).
  const png = await bwipjs.toBuffer({
    bcid: 'qrcode',
    text,
    scale: QR_SCALE,
    padding: 8,
    backgroundcolor: 'FFFFFF',
  });
  const image = openImage(doc, png);
  return { image, modules: 0 };
}

interface TextStyle {
  font: string;
  /** Whether text must be narrowed to the built-in font's characters. */
  builtIn: boolean;
}

/** `text` cut with "…" so it is at most `width` wide at the current font and size. */
function fitText(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  const chars = Array.from(text);
  let low = 0;
  let high = chars.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (doc.widthOfString(`${chars.slice(0, mid).join('').trimEnd()}…`) <= width) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '' : `${chars.slice(0, low).join('').trimEnd()}…`;
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** One label in a `width` × `height` box whose top-left corner is (0, 0) of the current transformation. */
function drawLabel(
  doc: Doc,
  options: LabelOptions,
  style: TextStyle,
  item: LabelItem,
  barcode: Barcode,
  width: number,
  height: number,
) {
  const pad = Math.min(mmToPt(1.5), height * 0.08, width * 0.08);
  const innerWidth = width - 2 * pad;
  const innerHeight = height - 2 * pad;
  const fontSize = clamp(innerHeight * 0.12, 5, 10);
  const lineHeight = fontSize * 1.15;
  const gap = fontSize * 0.3;
  const clean = (text: string) => oneLine(style.builtIn ? winAnsi(text) : text);

  // The lines in reading order, each with its rank when space runs short (the code is kept longest).
  const candidates = [
    { text: options.showName ? clean(item.name) : '', rank: 2 },
    { text: clean(item.code), rank: 0 },
    { text: options.showPrice && item.price ? clean(item.price) : '', rank: 1 },
  ].filter((line) => line.text.length > 0);
  const keep = (room: number) => {
    const count = Math.max(0, Math.min(candidates.length, Math.floor((room + EPSILON) / lineHeight)));
    const kept = new Set([...candidates].sort((a, b) => a.rank - b.rank).slice(0, count));
    return candidates.filter((line) => kept.has(line));
  };

  doc.font(style.font).fontSize(fontSize).fillColor('black');
  const writeLines = (
    lines: { text: string }[],
    x: number,
    y: number,
    lineWidth: number,
    align: 'center' | 'left',
  ) => {
    lines.forEach((line, index) => {
      const text = fitText(doc, line.text, lineWidth);
      if (!text) return;
      const textWidth = doc.widthOfString(text);
      const left = align === 'center' ? x + (lineWidth - textWidth) / 2 : x;
      // No `width` option: pdfkit then writes the line as it is, never wrapping it or starting a new page.
      doc.text(text, left, y + index * lineHeight + (lineHeight - fontSize) / 2, { lineBreak: false });
    });
  };

  if (options.symbology === 'qrcode' && innerWidth >= innerHeight * 1.6) {
    // A wide QR label: the code on the left, the text beside it.
    const side = innerHeight;
    placeImage(doc, barcode.image, pad, pad, side, side);
    const lines = keep(innerHeight);
    const textX = pad + side + gap * 2;
    const textHeight = lines.length * lineHeight;
    writeLines(lines, textX, pad + (innerHeight - textHeight) / 2, width - pad - textX, 'left');
    return;
  }

  const lines = keep(innerHeight * 0.45);
  const textHeight = lines.length * lineHeight;
  const room = innerHeight - textHeight - (lines.length > 0 ? gap : 0);
  let codeWidth: number;
  let codeHeight: number;
  if (options.symbology === 'qrcode') {
    codeWidth = codeHeight = Math.min(innerWidth, room);
  } else {
    codeWidth = Math.min(innerWidth, barcode.modules * MAX_MODULE_PT);
    codeHeight = Math.min(room, Math.max(innerWidth * 0.5, mmToPt(8)));
  }
  const blockHeight = codeHeight + (lines.length > 0 ? gap + textHeight : 0);
  const top = pad + (innerHeight - blockHeight) / 2;
  placeImage(doc, barcode.image, pad + (innerWidth - codeWidth) / 2, top, codeWidth, codeHeight);
  writeLines(lines, pad, top + codeHeight + gap, innerWidth, 'center');
}

const YIELD_EVERY = 250;

/**
 * The labels as one PDF: each item `copies` times, in the order given. Throws LabelLayoutError when the labels per
 * sheet do not fit on the sheet or a code cannot be encoded in the symbology.
 */
export async function renderLabels(options: LabelOptions, items: readonly LabelItem[]): Promise<Buffer> {
  const layout = pageLayout(options);
  if (!items.some((item) => item.copies > 0)) throw new RangeError('renderLabels: no labels to print');
  const doc = new PDFDocument({
    size: [layout.pageWidth, layout.pageHeight],
    margin: 0,
    autoFirstPage: false,
    info: { Title: 'Barcode labels', Creator: 'Kedai' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  try {
    const style: TextStyle = { font: 'Helvetica', builtIn: true };
    if (options.font !== undefined) {
      doc.registerFont('label', options.font as Buffer | string);
      style.font = 'label';
      style.builtIn = false;
    }
    // One barcode image per distinct code, however many labels show it.
    const barcodes = new Map<string, Barcode>();
    for (const item of items) {
      if (!barcodes.has(item.code))
        barcodes.set(item.code, await renderBarcode(doc, options.symbology, item.code));
    }

    let slot = layout.perPage;
    let drawn = 0;
    for (const item of items) {
      const barcode = barcodes.get(item.code)!;
      for (let copy = 0; copy < item.copies; copy++) {
        if (slot === layout.perPage) {
          doc.addPage({ size: [layout.pageWidth, layout.pageHeight], margin: 0 });
          slot = 0;
        }
        const column = slot % layout.columns;
        const row = Math.floor(slot / layout.columns);
        doc.save();
        doc.translate(layout.originX + column * layout.pitchX, layout.originY + row * layout.pitchY);
        if (layout.turned) {
          // Content x runs down the page, content y leftwards from the page's right edge.
          doc.translate(layout.pageWidth, 0).rotate(90, { origin: [0, 0] });
        }
        drawLabel(doc, options, style, item, barcode, layout.labelWidth, layout.labelHeight);
        doc.restore();
        slot++;
        // A long print lets other requests in now and then.
        if (++drawn % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    }
  } catch (error) {
    doc.end();
    await finished.catch(() => undefined);
    throw error;
  }
  doc.end();
  return finished;
}
