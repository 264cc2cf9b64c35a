import { deflateSync } from 'node:zlib';
import { fontFile } from '@commands/printing/labels';
import { mergePdfs, PdfMergeError } from '@commands/printing/pdf-merge';
import { contentStreams, isPdf, mediaBoxes, objects, pageCount } from '@tests/api/inventory/pdf';
import { pageTexts } from '@tests/support/pdf-text';
import PDFDocument from 'pdfkit';
import { describe, expect, it } from 'vitest';

/**
 * The PDF merger behind bulk air waybills (commands/printing/pdf-merge.ts): pdfkit documents (as the sandbox and
 * Kedai write them) and a PDF 1.5 with its objects in a compressed object stream and a cross-reference stream,
 * whose pages inherit their media box and resources from the page tree.
 */

async function pdfkitDocument(pages: string[], size: [number, number] = [300, 200]): Promise<Buffer> {
  const doc = new PDFDocument({ size, margin: 10, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve) => doc.on('end', () => resolve(Buffer.concat(chunks))));
  // Noto Sans (with its Unicode map, so the text can be read back), as Kedai and the sandbox write.
  doc.registerFont('NotoSans', await fontFile('latin'));
  for (const text of pages) {
    doc.addPage({ size, margin: 10 });
    doc.font('NotoSans').fontSize(12).text(text, 20, 20);
  }
  doc.end();
  return done;
}

/** A PDF 1.5: catalog, page tree and page in a Flate object stream; the page's media box and font inherited. */
function objectStreamPdf(): Buffer {
  const parts: Buffer[] = [];
  let length = 0;
  const offsets: number[] = [];
  const push = (chunk: string | Buffer) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'latin1') : chunk;
    parts.push(bytes);
    length += bytes.length;
  };
  push('%PDF-1.5\n%\xe2\xe3\xcf\xd3\n');
  const inner = [
    '<< /Type /Catalog /Pages 3 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 /MediaBox [0 0 200 100] /Resources << /Font << /F9 7 0 R >> >> >>',
    '<< /Type /Page /Parent 3 0 R /Contents 5 0 R >>',
  ];
  let header = '';
  let body = '';
  inner.forEach((text, index) => {
    header += `${index + 2} ${body.length} `;
    body += `${text}\n`;
  });
  const packed = deflateSync(Buffer.from(header + body, 'latin1'));
  offsets[1] = length;
  push(
    `1 0 obj\n<< /Type /ObjStm /N 3 /First ${header.length} /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
  );
  push(packed);
  push('\nendstream\nendobj\n');
  const content = 'BT\n/F9 12 Tf\n10 50 Td\n(Hello from 1.5) Tj\nET';
  offsets[5] = length;
  push(`5 0 obj\n<< /Length 6 0 R >>\nstream\n${content}\nendstream\nendobj\n`);
  offsets[6] = length;
  push(`6 0 obj\n${content.length}\nendobj\n`);
  // The font object written after: the Length object came first on purpose (an indirect length).
  offsets[7] = length;
  push('7 0 obj\n<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>\nendobj\n');
  const xrefAt = length;
  push(
    `8 0 obj\n<< /Type /XRef /Size 9 /Root 2 0 R /W [1 4 2] /Length 0 >>\nstream\n\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`,
  );
  return Buffer.concat(parts);
}

/** Every in-use cross-reference entry points at its object. */
function expectSoundXref(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
  expect(text.startsWith('xref\n', xrefAt)).toBe(true);
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(text.slice(xrefAt))!;
  const entries = text
    .slice(xrefAt)
    .split('\n')
    .slice(2, 2 + Number(count));
  expect(Number(first)).toBe(0);
  entries.forEach((entry, num) => {
    expect(entry.length).toBe(19);
    if (entry.endsWith(' n ')) {
      const offset = Number(entry.slice(0, 10));
      expect(text.startsWith(`${num} 0 obj\n`, offset)).toBe(true);
    }
  });
}

describe('merging PDFs', () => {
  it('puts every page of every PDF one after another, each read with its own fonts', async () => {
    const first = await pdfkitDocument(['Order A page 1', 'Order A page 2']);
    const second = await pdfkitDocument(['Order B only'], [400, 600]);
    const merged = await mergePdfs([first, second, first]);
    expect(isPdf(merged)).toBe(true);
    expect(pageCount(merged)).toBe(5);
    expect(pageTexts(merged).map((page) => page.join(' '))).toEqual([
      'Order A page 1',
      'Order A page 2',
      'Order B only',
      'Order A page 1',
      'Order A page 2',
    ]);
    expect(mediaBoxes(merged).map((box) => [box.width, box.height])).toEqual([
      [300, 200],
      [300, 200],
      [400, 600],
      [300, 200],
      [300, 200],
    ]);
    expectSoundXref(merged);
  });

  it('reads objects out of object streams, resolves indirect lengths and brings inherited attributes onto the page', async () => {
    const modern = objectStreamPdf();
    const merged = await mergePdfs([await pdfkitDocument(['Kedai page']), modern]);
    expect(pageCount(merged)).toBe(2);
    expect(mediaBoxes(merged).map((box) => [box.width, box.height])).toEqual([
      [300, 200],
      [200, 100],
    ]);
    expect(contentStreams(merged)[1]).toBe('BT\n/F9 12 Tf\n10 50 Td\n(Hello from 1.5) Tj\nET');
    // The page now names its font itself, renumbered, and the font is there.
    const page = [...objects(merged).values()].find(
      (object) => /\/Contents \d+ 0 R/.test(object.dict) && object.dict.includes('/F9'),
    )!;
    const fontRef = Number(/\/F9 (\d+) 0 R/.exec(page.dict)![1]);
    expect(objects(merged).get(fontRef)!.dict).toContain('/BaseFont /Helvetica');
    // No object stream or cross-reference stream is carried over.
    expect(merged.toString('latin1')).not.toMatch(/\/Type \/(ObjStm|XRef)\b/);
    expectSoundXref(merged);
  });

  it('returns a single PDF as it is, and refuses what it cannot merge', async () => {
    const only = await pdfkitDocument(['Alone']);
    expect(await mergePdfs([only])).toBe(only);
    await expect(mergePdfs([])).rejects.toThrow(PdfMergeError);
    await expect(mergePdfs([only, Buffer.from('<html>not a pdf</html>')])).rejects.toThrow(PdfMergeError);
    const encrypted = Buffer.from(
      `${only.toString('latin1').replace(/trailer\n<<\n/, 'trailer\n<<\n/Encrypt 99 0 R\n')}`,
      'latin1',
    );
    expect(encrypted.toString('latin1')).toContain('/Encrypt 99 0 R');
    await expect(mergePdfs([only, encrypted])).rejects.toThrow(/encrypted/);
  });
});
