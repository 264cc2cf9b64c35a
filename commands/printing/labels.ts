import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Orientation, Paper, Symbology } from '@domain/printing/labels';
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
 * - Text is written in Noto Sans, switching within a line to Noto Sans Thai for Thai and Noto Sans SC for Chinese,
 *   Japanese kana and other CJK characters (see `scriptRuns`). pdfkit embeds only the glyphs used, each font with a
 *   ToUnicode map, so the PDF stays small and its text can be searched and copied.
 */

export {
  LABEL_LIMITS,
  ORIENTATIONS,
  type Orientation,
  PAPERS,
  type Paper,
  SYMBOLOGIES,
  type Symbology,
} from '@domain/printing/labels';

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

/** The fonts text is written in, one per group of scripts: each ships in an installed @expo-google-fonts package. */
export const LABEL_FONTS = {
  latin: {
    name: 'NotoSans',
    pkg: '@expo-google-fonts/noto-sans',
    file: '400Regular/NotoSans_400Regular.ttf',
  },
  thai: {
    name: 'NotoSansThai',
    pkg: '@expo-google-fonts/noto-sans-thai',
    file: '400Regular/NotoSansThai_400Regular.ttf',
  },
  cjk: {
    name: 'NotoSansSC',
    pkg: '@expo-google-fonts/noto-sans-sc',
    file: '400Regular/NotoSansSC_400Regular.ttf',
  },
} as const;
export type Script = keyof typeof LABEL_FONTS;

/** Code point ranges written in Noto Sans SC: CJK ideographs, kana, hangul, CJK punctuation, fullwidth forms. */
const CJK_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x11ff], // Hangul Jamo
  [0x2e80, 0x2fdf], // CJK radicals, Kangxi radicals
  [0x2ff0, 0x303f], // ideographic description, CJK symbols and punctuation
  [0x3040, 0x33ff], // kana, bopomofo, hangul compatibility jamo, kanbun, strokes, enclosed CJK, CJK compatibility
  [0x3400, 0x4dbf], // CJK extension A
  [0x4e00, 0x9fff], // CJK unified ideographs
  [0xa960, 0xa97f], // Hangul Jamo extended A
  [0xac00, 0xd7ff], // Hangul syllables, Jamo extended B
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe30, 0xfe4f], // CJK compatibility forms
  [0xff00, 0xffef], // halfwidth and fullwidth forms
  [0x1b000, 0x1b16f], // kana supplement and extended A
  [0x20000, 0x3ffff], // CJK extensions B and later
];
const COMBINING_MARK = /^\p{M}$/u;

export function scriptOf(point: number): Script {
  if (point >= 0x0e00 && point <= 0x0e7f) return 'thai';
  for (const [from, to] of CJK_RANGES) if (point >= from && point <= to) return 'cjk';
  return 'latin';
}

/**
 * `text` split into runs of one font each, in order. A combining mark stays with the character it is written on, so
 * a letter and its accent are never drawn in two fonts.
 */
export function scriptRuns(text: string): { script: Script; text: string }[] {
  const runs: { script: Script; text: string }[] = [];
  for (const char of text) {
    const last = runs.at(-1);
    const script = last && COMBINING_MARK.test(char) ? last.script : scriptOf(char.codePointAt(0)!);
    if (last?.script === script) last.text += char;
    else runs.push({ script, text: char });
  }
  return runs;
}

const fontFiles = new Map<Script, Promise<Buffer>>();
const resolveFrom = createRequire(import.meta.url);

/** A font's bytes, read once per process (a failed read is tried again next time). */
export function fontFile(script: Script): Promise<Buffer> {
  let file = fontFiles.get(script);
  if (!file) {
    const { pkg, file: name } = LABEL_FONTS[script];
    file = readFile(path.join(path.dirname(resolveFrom.resolve(`${pkg}/package.json`)), name));
    file.catch(() => fontFiles.delete(script));
    fontFiles.set(script, file);
  }
  return file;
}

/** One line: whitespace runs and control characters made single spaces; composed (NFC), as the fonts map it. */
export const oneLine = (text: string) =>
  text
    .normalize('NFC')
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

// ---- drawing ----

export type Doc = InstanceType<typeof PDFDocument>;
/** pdfkit's embedded image: placed again, it is referenced again rather than embedded anew. */
type EmbeddedImage = { width: number; height: number };
/** An image opened once, to be placed (and referenced, not embedded anew) any number of times. */
export const openImage = (doc: Doc, png: Buffer) =>
  (doc as unknown as { openImage(src: Buffer): EmbeddedImage }).openImage(png);
export const placeImage = (
  doc: Doc,
  image: EmbeddedImage,
  x: number,
  y: number,
  width: number,
  height: number,
) => doc.image(image as unknown as Buffer, x, y, { width, height });

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

/** Where the baseline sits below the top of a line's em box, in ems: Latin, Thai and CJK text all fit the line. */
const BASELINE_EM = 0.85;

const selectFont = (doc: Doc, script: Script) => doc.font(LABEL_FONTS[script].name);

/** The width of `text` at the current size, each run measured in the font it is written in. */
export function textWidth(doc: Doc, text: string): number {
  let width = 0;
  for (const run of scriptRuns(text)) width += selectFont(doc, run.script).widthOfString(run.text);
  return width;
}

/** `text` cut with "…" so it is at most `width` wide at the current size (never inside a character cluster). */
function fitText(doc: Doc, text: string, width: number): string {
  if (textWidth(doc, text) <= width) return text;
  const clusters = Array.from(graphemes.segment(text), (part) => part.segment);
  const cut = (count: number) => `${clusters.slice(0, count).join('').trimEnd()}…`;
  let low = 0;
  let high = clusters.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (textWidth(doc, cut(mid)) <= width) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '' : cut(low);
}

/** `text` from `x` along the baseline at `y`, run after run, each in its own font. */
export function writeText(doc: Doc, text: string, x: number, y: number) {
  let left = x;
  for (const run of scriptRuns(text)) {
    selectFont(doc, run.script);
    // No `width` option: pdfkit then writes the run as it is, never wrapping it or starting a new page.
    doc.text(run.text, left, y, { lineBreak: false, baseline: 'alphabetic' });
    left += doc.widthOfString(run.text);
  }
}

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** One label in a `width` × `height` box whose top-left corner is (0, 0) of the current transformation. */
function drawLabel(
  doc: Doc,
  options: LabelOptions,
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

  // The lines in reading order, each with its rank when space runs short (the code is kept longest).
  const candidates = [
    { text: options.showName ? oneLine(item.name) : '', rank: 2 },
    { text: oneLine(item.code), rank: 0 },
    { text: options.showPrice && item.price ? oneLine(item.price) : '', rank: 1 },
  ].filter((line) => line.text.length > 0);
  const keep = (room: number) => {
    const count = Math.max(0, Math.min(candidates.length, Math.floor((room + EPSILON) / lineHeight)));
    const kept = new Set([...candidates].sort((a, b) => a.rank - b.rank).slice(0, count));
    return candidates.filter((line) => kept.has(line));
  };

  doc.fontSize(fontSize).fillColor('black');
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
      const left = align === 'center' ? x + (lineWidth - textWidth(doc, text)) / 2 : x;
      const emTop = y + index * lineHeight + (lineHeight - fontSize) / 2;
      writeText(doc, text, left, emTop + fontSize * BASELINE_EM);
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
  // The fonts the text needs (Noto Sans always: it has the "…"), read before the document starts.
  const scripts = new Set<Script>(['latin']);
  for (const item of items) {
    const texts = [item.code, options.showName ? item.name : '', options.showPrice ? (item.price ?? '') : ''];
    for (const char of texts.join('')) scripts.add(scriptOf(char.codePointAt(0)!));
  }
  const fonts = await Promise.all(
    [...scripts].map(async (script) => [script, await fontFile(script)] as const),
  );
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
    for (const [script, bytes] of fonts) doc.registerFont(LABEL_FONTS[script].name, bytes);
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
        drawLabel(doc, options, item, barcode, layout.labelWidth, layout.labelHeight);
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
