import { inflateSync } from 'node:zlib';

/**
 * Reading the PDFs pdfkit writes, enough for tests: object dictionaries stay readable (only streams are
 * compressed). Text is read back the way a PDF viewer copies it: the glyph codes of each `TJ` (hex strings in the
 * deflated content streams) mapped to characters through the font's ToUnicode CMap.
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
  [...latin1(pdf).matchAll(/\/MediaBox ?\[ ?0 0 ([\d.]+) ([\d.]+) ?\]/g)].map((m) => ({
    width: Number(m[1]),
    height: Number(m[2]),
  }));

interface PdfObject {
  /** The dictionary (or other value) before any stream. */
  dict: string;
  /** The stream's bytes, inflated when deflated. */
  stream?: Buffer;
}

/** Every indirect object by number, streams cut by their /Length (so binary data is never searched). */
export function objects(pdf: Buffer): Map<number, PdfObject> {
  const text = latin1(pdf);
  const found = new Map<number, PdfObject>();
  const header = /(\d+) 0 obj\n/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const start = match.index + match[0].length;
    const end = text.indexOf('\nendobj', start);
    const streamAt = text.indexOf('\nstream\n', start);
    if (streamAt === -1 || streamAt > end) {
      found.set(Number(match[1]), { dict: text.slice(start, end) });
      continue;
    }
    const dict = text.slice(start, streamAt);
    const length = Number(/\/Length (\d+)/.exec(dict)?.[1]);
    const dataStart = streamAt + '\nstream\n'.length;
    const raw = pdf.subarray(dataStart, dataStart + length);
    found.set(Number(match[1]), {
      dict,
      stream: dict.includes('/FlateDecode') ? inflateSync(raw) : Buffer.from(raw),
    });
    header.lastIndex = dataStart + length;
  }
  return found;
}

/** The decompressed page content streams. */
export const contentStreams = (pdf: Buffer): string[] => {
  const all = objects(pdf);
  return [...latin1(pdf).matchAll(/\/Contents (\d+) 0 R/g)].map((m) =>
    latin1(all.get(Number(m[1]))?.stream ?? Buffer.alloc(0)),
  );
};

/** Reads a ToUnicode CMap: glyph code → the characters it stands for. */
export function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  const chars = (hex: string) =>
    String.fromCharCode(...(hex.match(/[0-9a-f]{4}/gi) ?? []).map((unit) => Number.parseInt(unit, 16)));
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const range of block[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f]+)>\s*(\[[^\]]*\]|<[0-9a-f ]+>)/gi)) {
      const from = Number.parseInt(range[1]!, 16);
      const to = Number.parseInt(range[2]!, 16);
      if (range[3]!.startsWith('[')) {
        [...range[3]!.matchAll(/<([0-9a-f ]*)>/gi)].forEach((entry, index) => {
          map.set(from + index, chars(entry[1]!));
        });
      } else {
        const first = chars(range[3]!);
        const last = first.charCodeAt(first.length - 1);
        for (let code = from; code <= to; code++)
          map.set(code, first.slice(0, -1) + String.fromCharCode(last + code - from));
      }
    }
  }
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const entry of block[1]!.matchAll(/<([0-9a-f]+)>\s*<([0-9a-f ]+)>/gi))
      map.set(Number.parseInt(entry[1]!, 16), chars(entry[2]!));
  }
  return map;
}

export interface PdfFont {
  /** The font's name without the subset tag ("ABCDEF+"). */
  name: string;
  /** Whether the font program is in the PDF. */
  embedded: boolean;
  /** Glyph code → characters, from the ToUnicode CMap. */
  unicode: Map<number, string>;
  /** Glyph code → advance width in thousandths of the font size, from the descendant font's /W. */
  widths: Map<number, number>;
}

const ref = (dict: string, key: string) => Number(new RegExp(`/${key} \\[?(\\d+) 0 R`).exec(dict)?.[1]);

/** The fonts pages use, by resource name (`F1`, …); pdfkit names each font once per document. */
export function fonts(pdf: Buffer): Map<string, PdfFont> {
  const all = objects(pdf);
  const found = new Map<string, PdfFont>();
  for (const { dict } of all.values()) {
    for (const resources of dict.matchAll(/\/Font <<([^>]*)>>/g)) {
      for (const entry of resources[1]!.matchAll(/\/(\S+) (\d+) 0 R/g)) {
        const font = all.get(Number(entry[2]))!.dict;
        const name = /\/BaseFont \/(?:[A-Z]{6}\+)?(\S+)/.exec(font)![1]!;
        const cmap = all.get(ref(font, 'ToUnicode'))?.stream;
        // A font without one (the built-in Helvetica) cannot be read back: the tests want real text.
        if (!cmap) throw new Error(`font ${name} (${entry[1]}) has no ToUnicode map`);
        const descendant = all.get(ref(font, 'DescendantFonts'))!.dict;
        const descriptor = all.get(ref(descendant, 'FontDescriptor'))!.dict;
        const widths = new Map<number, number>();
        for (const run of descendant.slice(descendant.indexOf('/W [')).matchAll(/(\d+) \[([^\]]*)\]/g)) {
          run[2]!
            .trim()
            .split(/\s+/)
            .forEach((width, index) => {
              widths.set(Number(run[1]) + index, Number(width));
            });
        }
        found.set(entry[1]!, {
          name,
          embedded: /\/FontFile[23]? \d+ 0 R/.test(descriptor),
          unicode: toUnicode(latin1(cmap)),
          widths,
        });
      }
    }
  }
  return found;
}

/** The names of the fonts the PDF's text uses, sorted. */
export const fontNames = (pdf: Buffer) => [...new Set([...fonts(pdf).values()].map((f) => f.name))].sort();

/** One `BT … ET` block as pdfkit writes it: a run of text in one font, drawn from (x, y) to `right`. */
export interface TextFragment {
  text: string;
  font: string;
  x: number;
  right: number;
  /** The baseline, in the fragment's own (flipped) space. */
  y: number;
  /** Which top-level `q … Q` group drew it: each label is one. */
  group: number;
}

/** Every text fragment of every page, in drawing order, in the coordinates of the label that draws it. */
export function textFragments(pdf: Buffer): TextFragment[] {
  const byName = fonts(pdf);
  const fragments: TextFragment[] = [];
  let depth = 0;
  let group = 0;
  for (const stream of contentStreams(pdf)) {
    let font: PdfFont | undefined;
    let size = 0;
    let cursor = 0;
    let current: TextFragment | undefined;
    for (const line of stream.split('\n')) {
      if (line === 'q' && depth++ === 0) group++;
      else if (line === 'Q') depth--;
      else if (line === 'BT') current = { text: '', font: '', x: Number.NaN, right: 0, y: 0, group };
      else if (line === 'ET' && current) fragments.push(current);
      else if (line.endsWith(' Tm') && current) {
        const [x, y] = line.split(' ').slice(4, 6).map(Number) as [number, number];
        cursor = x;
        if (Number.isNaN(current.x)) Object.assign(current, { x, y, right: x });
      } else if (line.endsWith(' Tf')) {
        const [name, points] = line.slice(1).split(' ');
        font = byName.get(name!);
        size = Number(points);
        if (current) current.font = font?.name ?? '';
      } else if (line.endsWith(' TJ') && current && font) {
        // Hex strings of 2-byte glyph codes, and adjustments in thousandths of the size moving the next one back.
        for (const item of line.slice(1, line.lastIndexOf(']')).matchAll(/<([0-9a-f]*)>|(-?[\d.]+)/gi)) {
          if (item[2] !== undefined) {
            cursor -= (Number(item[2]) * size) / 1000;
            continue;
          }
          for (const code of item[1]!.match(/[0-9a-f]{4}/gi) ?? []) {
            const glyph = Number.parseInt(code, 16);
            current.text += font.unicode.get(glyph) ?? '\ufffd';
            cursor += ((font.widths.get(glyph) ?? 0) * size) / 1000;
          }
          current.right = Math.max(current.right, cursor);
        }
      }
    }
  }
  return fragments;
}

/** A line of a label: the fragments drawn one after another on one baseline. */
export interface TextLine {
  text: string;
  x: number;
  right: number;
  /** The fonts of its fragments, in order. */
  fonts: string[];
  fragments: TextFragment[];
}

/** The text lines drawn, in order, over all pages, with where each starts and ends. */
export function textBoxes(pdf: Buffer): TextLine[] {
  const lines: TextLine[] = [];
  let last: TextFragment | undefined;
  for (const fragment of textFragments(pdf)) {
    const line = lines.at(-1);
    if (line && last && last.group === fragment.group && Math.abs(last.y - fragment.y) < 1e-6) {
      line.text += fragment.text;
      line.right = fragment.right;
      line.fonts.push(fragment.font);
      line.fragments.push(fragment);
    } else {
      lines.push({
        text: fragment.text,
        x: fragment.x,
        right: fragment.right,
        fonts: [fragment.font],
        fragments: [fragment],
      });
    }
    last = fragment;
  }
  return lines;
}

/** The text lines drawn, in order, over all pages. */
export const textLines = (pdf: Buffer): string[] => textBoxes(pdf).map((line) => line.text);
