import {
  type Doc,
  fontFile,
  LABEL_FONTS,
  oneLine,
  type Script,
  scriptOf,
  scriptRuns,
  textWidth,
  writeText,
} from '@commands/printing/labels';
import PDFDocument from 'pdfkit';

/**
 * What Kedai's A4 documents (pick lists, order documents, purchase orders) share: a pdfkit document with the Noto
 * fonts its text needs registered (commands/printing/labels.ts finds them and splits text into runs per script), its
 * bytes collected into a Buffer, one line of mixed-script text, and a table's header and rows.
 */

export type { Doc };
export { oneLine, textWidth };

export const A4 = { width: 595.28, height: 841.89 };
/** Where the baseline sits below the top of a line's em box, in ems. */
const BASELINE_EM = 0.85;

export interface Pdf {
  doc: Doc;
  /** The document's bytes, once `doc.end()` was called. */
  finished: Promise<Buffer>;
}

/**
 * An A4 document with no page yet, the fonts of every script in `texts` registered (Noto Sans always: it has the
 * "…"), each read before the document starts.
 */
export async function openPdf(options: {
  margin: number;
  title: string;
  texts: readonly string[];
}): Promise<Pdf> {
  const scripts = new Set<Script>(['latin']);
  for (const char of options.texts.join('')) scripts.add(scriptOf(char.codePointAt(0)!));
  const fonts = await Promise.all(
    [...scripts].map(async (script) => [script, await fontFile(script)] as const),
  );
  const doc = new PDFDocument({
    size: 'A4',
    margin: options.margin,
    autoFirstPage: false,
    info: { Title: options.title, Creator: 'Kedai' },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  for (const [script, bytes] of fonts) doc.registerFont(LABEL_FONTS[script].name, bytes);
  return { doc, finished };
}

/** `value` cut with "…" to fit `width` at the current size. */
function fitText(doc: Doc, value: string, width: number): string {
  if (textWidth(doc, value) <= width) return value;
  const characters = [...value];
  let count = characters.length;
  while (count > 0 && textWidth(doc, `${characters.slice(0, count).join('').trimEnd()}…`) > width) count--;
  return count === 0 ? '' : `${characters.slice(0, count).join('').trimEnd()}…`;
}

export interface WriteOptions {
  /** Font size; 9 when absent. */
  size?: number;
  /** Cut with "…" to this width; with `center`, the width it is centred in. */
  width?: number;
  /** `right`: ends at `x`; `center`: centred in `width` from `x`. */
  align?: 'left' | 'right' | 'center';
  /**
   * Latin runs keep precomposed letters (Vietnamese ụ, ế…) as their own glyphs, so copied text reads true; and the
   * line is written in one graphics state, so a reader sees its runs (one per font) as one line.
   */
  precomposed?: boolean;
}

/** One line of text with its top at `top`, run after run each in its own font. */
export function writeLine(doc: Doc, raw: string, x: number, top: number, opts: WriteOptions = {}): void {
  const size = opts.size ?? 9;
  doc.fontSize(size);
  let value = oneLine(raw);
  if (value === '') return;
  if (opts.width !== undefined) value = fitText(doc, value, opts.width);
  const baseline = top + size * BASELINE_EM;
  const width = opts.align === 'right' || opts.align === 'center' ? textWidth(doc, value) : 0;
  const left =
    opts.align === 'right'
      ? x - width
      : opts.align === 'center'
        ? x + ((opts.width ?? width) - width) / 2
        : x;
  if (!opts.precomposed) {
    writeText(doc, value, left, baseline);
    return;
  }
  let runLeft = left;
  doc.save();
  for (const run of scriptRuns(value)) {
    doc.font(LABEL_FONTS[run.script].name);
    doc.text(run.text, runLeft, baseline, {
      lineBreak: false,
      baseline: 'alphabetic',
      ...(run.script === 'latin'
        ? { features: { ccmp: false } as unknown as PDFKit.Mixins.OpenTypeFeatures[] }
        : {}),
    });
    runLeft += doc.widthOfString(run.text);
  }
  doc.restore();
}

export interface TableColumn<Key extends string> {
  key: Key;
  x: number;
  width: number;
  align: 'left' | 'right';
}

/** A table's grey header band from `left` to `right` with each column's heading; answers the first row's top. */
export function tableHeader<Key extends string>(
  doc: Doc,
  columns: readonly TableColumn<Key>[],
  heading: (key: Key) => string,
  top: number,
  left: number,
  right: number,
): number {
  doc
    .rect(left, top - 3, right - left, 16)
    .fill('#eeeeee')
    .fillColor('black');
  for (const column of columns) {
    writeLine(doc, heading(column.key), column.x, top, { size: 8, width: column.width, align: column.align });
  }
  return top + 18;
}

/** One table row: each column's cell at its place, cut to its width. */
export function tableRow<Key extends string>(
  doc: Doc,
  columns: readonly TableColumn<Key>[],
  cells: Record<Key, string>,
  top: number,
): void {
  for (const column of columns) {
    writeLine(doc, cells[column.key], column.x, top, { width: column.width, align: column.align });
  }
}
