import { inflateSync } from 'node:zlib';

/**
 * Merges PDFs into one, page after page, without a PDF library: bulk air waybills come from the marketplace as one
 * PDF per store and batch, and a warehouse prints them in one go.
 *
 * Each source is read object by object (classic cross-reference tables and PDF 1.5 object and cross-reference
 * streams alike: objects are found by scanning, compressed ones are taken out of their object streams), its page
 * tree is walked from the trailer's /Root with the inheritable attributes (/Resources, /MediaBox, /CropBox,
 * /Rotate) brought down onto each page, and every object is written again under a new number (the sources'
 * numbers shifted past each other's), with one new page tree and catalog over all the pages. Stream data is copied
 * byte for byte; each stream's /Length is written directly. Encrypted PDFs are refused, as are object streams with
 * filters other than Flate. What the old catalogs held besides the pages (outlines, forms, names) is left out.
 */

export class PdfMergeError extends Error {
  override name = 'PdfMergeError';
}

// ---- a small reader of PDF syntax ----

type Value =
  | { t: 'dict'; entries: Map<string, Value>; start: number; end: number }
  | { t: 'array'; items: Value[]; start: number; end: number }
  | { t: 'ref'; num: number; start: number; end: number }
  | { t: 'num'; value: number; start: number; end: number }
  | { t: 'name'; value: string; start: number; end: number }
  /** Strings, booleans, null, anything else: copied as written. */
  | { t: 'raw'; start: number; end: number };

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set('()<>[]{}/%'.split('').map((c) => c.charCodeAt(0)));

class Reader {
  constructor(readonly text: string) {}

  skip(pos: number): number {
    const { text } = this;
    while (pos < text.length) {
      const code = text.charCodeAt(pos);
      if (WHITESPACE.has(code)) pos++;
      else if (code === 0x25 /* % */) {
        while (pos < text.length && text[pos] !== '\n' && text[pos] !== '\r') pos++;
      } else break;
    }
    return pos;
  }

  /** A run of regular characters (a number, a keyword). */
  word(pos: number): number {
    const { text } = this;
    let end = pos;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (WHITESPACE.has(code) || DELIMITERS.has(code)) break;
      end++;
    }
    return end;
  }

  value(from: number): Value {
    const { text } = this;
    const start = this.skip(from);
    const char = text[start];
    if (char === undefined) throw new PdfMergeError('unexpected end of a PDF object');
    if (char === '<' && text[start + 1] === '<') {
      const entries = new Map<string, Value>();
      let pos = this.skip(start + 2);
      while (!(text[pos] === '>' && text[pos + 1] === '>')) {
        if (pos >= text.length) throw new PdfMergeError('unterminated dictionary');
        const key = this.value(pos);
        if (key.t !== 'name') throw new PdfMergeError('a dictionary key is not a name');
        const value = this.value(key.end);
        entries.set(key.value, value);
        pos = this.skip(value.end);
      }
      return { t: 'dict', entries, start, end: pos + 2 };
    }
    if (char === '[') {
      const items: Value[] = [];
      let pos = this.skip(start + 1);
      while (text[pos] !== ']') {
        if (pos >= text.length) throw new PdfMergeError('unterminated array');
        const item = this.value(pos);
        items.push(item);
        pos = this.skip(item.end);
      }
      return { t: 'array', items, start, end: pos + 1 };
    }
    if (char === '(') {
      let depth = 0;
      let pos = start;
      for (; pos < text.length; pos++) {
        const c = text[pos];
        if (c === '\\') pos++;
        else if (c === '(') depth++;
        else if (c === ')' && --depth === 0) break;
      }
      return { t: 'raw', start, end: pos + 1 };
    }
    if (char === '<') {
      const end = text.indexOf('>', start);
      if (end === -1) throw new PdfMergeError('unterminated hex string');
      return { t: 'raw', start, end: end + 1 };
    }
    if (char === '/') {
      const end = this.word(start + 1);
      return { t: 'name', value: text.slice(start + 1, end), start, end };
    }
    const end = this.word(start);
    if (end === start) throw new PdfMergeError(`unexpected "${char}" in a PDF object`);
    const token = text.slice(start, end);
    if (/^[+-]?(\d+\.?\d*|\.\d+)$/.test(token)) {
      // `n g R` is a reference.
      if (/^\d+$/.test(token)) {
        const genStart = this.skip(end);
        const genEnd = this.word(genStart);
        if (genEnd > genStart && /^\d+$/.test(text.slice(genStart, genEnd))) {
          const rStart = this.skip(genEnd);
          const rEnd = this.word(rStart);
          if (text.slice(rStart, rEnd) === 'R') return { t: 'ref', num: Number(token), start, end: rEnd };
        }
      }
      return { t: 'num', value: Number(token), start, end };
    }
    return { t: 'raw', start, end };
  }
}

// ---- one source PDF ----

interface PdfObject {
  value: Value;
  /** The text the value's offsets point into. */
  text: string;
  stream?: Buffer;
}

interface SourcePdf {
  objects: Map<number, PdfObject>;
  root: number;
}

const nameOf = (value: Value | undefined) => (value?.t === 'name' ? value.value : undefined);

function decodeStream(object: PdfObject): Buffer {
  if (object.value.t !== 'dict' || !object.stream) throw new PdfMergeError('not a stream');
  const filter = object.value.entries.get('Filter');
  const names =
    filter === undefined
      ? []
      : filter.t === 'array'
        ? filter.items.map((item) => nameOf(item))
        : [nameOf(filter)];
  if (names.length === 0) return object.stream;
  if (names.length === 1 && names[0] === 'FlateDecode' && !object.value.entries.has('DecodeParms')) {
    return inflateSync(object.stream);
  }
  throw new PdfMergeError(`object stream filter ${names.join(', ')} is not supported`);
}

function readPdf(pdf: Buffer): SourcePdf {
  const text = pdf.toString('latin1');
  if (!text.startsWith('%PDF-')) throw new PdfMergeError('not a PDF');
  const reader = new Reader(text);
  const objects = new Map<number, PdfObject>();
  const trailers: { at: number; dict: Value }[] = [];

  const header = /(\d+)\s+(\d+)\s+obj\b/g;
  for (let match = header.exec(text); match; match = header.exec(text)) {
    const before = match.index === 0 ? 0x0a : text.charCodeAt(match.index - 1);
    if (!WHITESPACE.has(before) && !DELIMITERS.has(before)) continue;
    let value: Value;
    try {
      value = reader.value(match.index + match[0].length);
    } catch {
      continue;
    }
    let pos = reader.skip(value.end);
    const object: PdfObject = { value, text };
    if (value.t === 'dict' && text.startsWith('stream', pos)) {
      let dataStart = pos + 'stream'.length;
      if (text[dataStart] === '\r') dataStart++;
      if (text[dataStart] === '\n') dataStart++;
      const length = value.entries.get('Length');
      let dataEnd = -1;
      if (length?.t === 'num') dataEnd = dataStart + length.value;
      else if (length?.t === 'ref') {
        const direct = new RegExp(`(?:^|[\\s])${length.num}\\s+\\d+\\s+obj\\s*(\\d+)\\s*endobj`).exec(text);
        if (direct) dataEnd = dataStart + Number(direct[1]);
      }
      if (dataEnd < dataStart || !/^\s*endstream/.test(text.slice(dataEnd, dataEnd + 40))) {
        const found = text.indexOf('endstream', dataStart);
        if (found === -1) throw new PdfMergeError('unterminated stream');
        dataEnd = found;
        if (text[dataEnd - 1] === '\n') dataEnd--;
        if (text[dataEnd - 1] === '\r') dataEnd--;
      }
      object.stream = pdf.subarray(dataStart, dataEnd);
      pos = text.indexOf('endstream', dataEnd) + 'endstream'.length;
    }
    objects.set(Number(match[1]), object);
    if (value.t === 'dict' && nameOf(value.entries.get('Type')) === 'XRef')
      trailers.push({ at: match.index, dict: value });
    header.lastIndex = Math.max(pos, header.lastIndex);
  }
  if (objects.size === 0) throw new PdfMergeError('no objects in the PDF');

  for (let at = text.indexOf('trailer'); at !== -1; at = text.indexOf('trailer', at + 7)) {
    try {
      const dict = reader.value(at + 'trailer'.length);
      if (dict.t === 'dict') trailers.push({ at, dict });
    } catch {
      // not a trailer after all (the word inside some data)
    }
  }
  trailers.sort((a, b) => a.at - b.at);
  if (trailers.some((trailer) => trailer.dict.t === 'dict' && trailer.dict.entries.has('Encrypt'))) {
    throw new PdfMergeError('encrypted PDFs cannot be merged');
  }

  // Objects kept in object streams (those written at the top level win: they are later updates).
  for (const [, object] of [...objects]) {
    if (object.value.t !== 'dict' || nameOf(object.value.entries.get('Type')) !== 'ObjStm') continue;
    const data = decodeStream(object).toString('latin1');
    const count = object.value.entries.get('N');
    const first = object.value.entries.get('First');
    if (count?.t !== 'num' || first?.t !== 'num')
      throw new PdfMergeError('object stream without /N or /First');
    const numbers = data.slice(0, first.value).trim().split(/\s+/).map(Number);
    const inner = new Reader(data);
    for (let index = 0; index < count.value; index++) {
      const num = numbers[index * 2]!;
      const offset = numbers[index * 2 + 1]!;
      if (objects.has(num)) continue;
      objects.set(num, { value: inner.value(first.value + offset), text: data });
    }
  }

  const rootOf = (dict: Value) => (dict.t === 'dict' ? dict.entries.get('Root') : undefined);
  const rootRef = [...trailers]
    .reverse()
    .map((trailer) => rootOf(trailer.dict))
    .find((root) => root?.t === 'ref');
  let root = rootRef?.t === 'ref' ? rootRef.num : undefined;
  if (root === undefined) {
    for (const [num, object] of objects) {
      if (object.value.t === 'dict' && nameOf(object.value.entries.get('Type')) === 'Catalog') root = num;
    }
  }
  if (root === undefined || !objects.has(root)) throw new PdfMergeError('the PDF has no catalog');
  return { objects, root };
}

const INHERITED = ['Resources', 'MediaBox', 'CropBox', 'Rotate'] as const;

interface Inherited {
  value: Value;
  /** The text of the node it comes from. */
  text: string;
}

interface PageRef {
  num: number;
  inherited: Map<string, Inherited>;
}

function pagesOf(source: SourcePdf): PageRef[] {
  const catalog = source.objects.get(source.root)!.value;
  if (catalog.t !== 'dict') throw new PdfMergeError('the catalog is not a dictionary');
  const pages = catalog.entries.get('Pages');
  if (pages?.t !== 'ref') throw new PdfMergeError('the catalog has no page tree');
  const found: PageRef[] = [];
  const seen = new Set<number>();
  const walk = (num: number, inherited: Map<string, Inherited>) => {
    if (seen.has(num)) throw new PdfMergeError('the page tree loops');
    seen.add(num);
    const object = source.objects.get(num);
    const node = object?.value;
    if (!object || node?.t !== 'dict') throw new PdfMergeError(`page tree node ${num} is missing`);
    const type = nameOf(node.entries.get('Type'));
    const kids = node.entries.get('Kids');
    if (type === 'Page' || (type === undefined && kids === undefined)) {
      found.push({ num, inherited });
      return;
    }
    const passed = new Map(inherited);
    for (const key of INHERITED) {
      const value = node.entries.get(key);
      if (value !== undefined) passed.set(key, { value, text: object.text });
    }
    if (kids?.t !== 'array') throw new PdfMergeError(`page tree node ${num} has no kids`);
    for (const kid of kids.items) {
      if (kid.t === 'ref') walk(kid.num, passed);
    }
  };
  walk(pages.num, new Map());
  return found;
}

// ---- writing ----

/** The value as PDF text, references renumbered. `text` is what its offsets point into. */
function write(value: Value, text: string, renumber: (num: number) => number): string {
  switch (value.t) {
    case 'dict':
      return `<<${[...value.entries].map(([key, entry]) => ` /${key} ${write(entry, text, renumber)}`).join('')} >>`;
    case 'array':
      return `[${value.items.map((item) => write(item, text, renumber)).join(' ')}]`;
    case 'ref':
      return `${renumber(value.num)} 0 R`;
    default:
      return text.slice(value.start, value.end);
  }
}

/** One PDF with every page of `pdfs`, in order. A single PDF is returned as it is. */
export function mergePdfs(pdfs: readonly Buffer[]): Buffer {
  if (pdfs.length === 0) throw new PdfMergeError('nothing to merge');
  if (pdfs.length === 1) return pdfs[0]!;
  const sources = pdfs.map(readPdf);

  const chunks: Buffer[] = [];
  const offsets = new Map<number, number>();
  let length = 0;
  const push = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    chunks.push(bytes);
    length += bytes.length;
  };
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');

  let base = 0;
  const kids: number[] = [];
  const pageObjects: { source: SourcePdf; page: PageRef; shift: number }[] = [];
  const shifts = sources.map((source) => {
    const shift = base;
    base += Math.max(...source.objects.keys()) + 1;
    return shift;
  });
  const pagesRoot = base + 1;
  const catalogNum = base + 2;

  sources.forEach((source, index) => {
    const shift = shifts[index]!;
    for (const page of pagesOf(source)) {
      kids.push(page.num + shift);
      pageObjects.push({ source, page, shift });
    }
  });
  const pageEdits = new Map(pageObjects.map((entry) => [entry.page.num + entry.shift, entry]));

  sources.forEach((source, index) => {
    const shift = shifts[index]!;
    const renumber = (num: number) => (source.objects.has(num) ? num + shift : 0);
    for (const [num, object] of [...source.objects].sort((a, b) => a[0] - b[0])) {
      const { value } = object;
      const type = value.t === 'dict' ? nameOf(value.entries.get('Type')) : undefined;
      // Cross-reference and object streams are rebuilt; the old catalogs and page tree nodes replaced.
      if (type === 'XRef' || type === 'ObjStm' || type === 'Catalog' || type === 'Pages') continue;
      if (num === source.root) continue;
      const newNum = num + shift;
      let body: string;
      const edit = pageEdits.get(newNum);
      if (edit && edit.source === source && value.t === 'dict') {
        const entries = new Map(value.entries);
        entries.delete('Parent');
        let head = '<<';
        for (const [key, entry] of entries) head += ` /${key} ${write(entry, object.text, renumber)}`;
        for (const [key, inherited] of edit.page.inherited) {
          if (!entries.has(key)) head += ` /${key} ${write(inherited.value, inherited.text, renumber)}`;
        }
        body = `${head} /Parent ${pagesRoot} 0 R >>`;
      } else if (object.stream && value.t === 'dict') {
        const entries = new Map(value.entries);
        entries.delete('Length');
        let head = '<<';
        for (const [key, entry] of entries) head += ` /${key} ${write(entry, object.text, renumber)}`;
        body = `${head} /Length ${object.stream.length} >>`;
      } else {
        body = write(value, object.text, renumber);
      }
      offsets.set(newNum, length);
      push(`${newNum} 0 obj\n${body}\n`);
      if (object.stream) {
        push('stream\n');
        push(object.stream);
        push('\nendstream\n');
      }
      push('endobj\n');
    }
  });

  offsets.set(pagesRoot, length);
  push(
    `${pagesRoot} 0 obj\n<< /Type /Pages /Kids [${kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${kids.length} >>\nendobj\n`,
  );
  offsets.set(catalogNum, length);
  push(`${catalogNum} 0 obj\n<< /Type /Catalog /Pages ${pagesRoot} 0 R >>\nendobj\n`);

  const xrefAt = length;
  const size = catalogNum + 1;
  let xref = `xref\n0 ${size}\n`;
  for (let num = 0; num < size; num++) {
    const offset = offsets.get(num);
    xref += offset === undefined ? '0000000000 65535 f \n' : `${String(offset).padStart(10, '0')} 00000 n \n`;
  }
  push(xref);
  push(`trailer\n<< /Size ${size} /Root ${catalogNum} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return Buffer.concat(chunks);
}
