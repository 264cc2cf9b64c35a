import { inflateSync } from 'node:zlib';

/**
 * Reading the PDFs pdfkit writes, enough for tests: object dictionaries stay readable (only streams are
 * compressed), and page text is hex strings inside `[...] TJ` arrays of the (deflated) content streams.
 */

const latin1 = (pdf: Buffer) => pdf.toString('latin1');

export const isPdf = (pdf: Buffer) =>
  latin1(pdf.subarray(0, 5)) === '%PDF-' && latin1(pdf).trimEnd().endsWith('%%EOF');

/** Page objects (not the `/Pages` tree). */
export const pageCount = (pdf: Buffer) => latin1(pdf).match(/\/Type \/Page\b/g)?.length ?? 0;

/** Image XObjects (a PNG with transparency brings its soft mask along as a second one). */
export const imageCount = (pdf: Buffer) => latin1(pdf).match(/\/Subtype \/Image\b/g)?.length ?? 0;

/** Every page's size in points, from its MediaBox. */
export const mediaBoxes = (pdf: Buffer) =>
  [...latin1(pdf).matchAll(/\/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]/g)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
  }));

/** The decompressed content streams (page contents; image data fails to read as drawing and is skipped). */
export function contentStreams(pdf: Buffer): string[] {
  const streams: string[] = [];
  const text = latin1(pdf);
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    try {
      const content = inflateSync(pdf.subarray(start, end)).toString('latin1');
      if (content.includes(' cm')) streams.push(content);
    } catch {
      // not deflated, or not a content stream
    }
  }
  return streams;
}

/** Windows-1252 bytes the built-in fonts use beyond Latin-1, for the characters tests look for. */
const CP1252: Record<number, string> = { 133: '…', 150: '–', 151: '—', 128: '€' };

/** The text lines drawn, in order, over all pages (each `TJ` is one line of a label). */
export function textLines(pdf: Buffer): string[] {
  const lines: string[] = [];
  for (const stream of contentStreams(pdf)) {
    for (const array of stream.matchAll(/\[([^\]]*)\] TJ/g)) {
      const hex = [...array[1]!.matchAll(/<([0-9a-f]*)>/gi)].map((m) => m[1]).join('');
      const bytes = Buffer.from(hex, 'hex');
      lines.push([...bytes].map((byte) => CP1252[byte] ?? String.fromCharCode(byte)).join(''));
    }
  }
  return lines;
}
