import { PDFDocument } from 'pdf-lib';

/**
 * Merges PDFs into one, page after page: bulk air waybills come from the marketplace as one PDF per store and
 * batch, and a warehouse prints them in one go. pdf-lib reads every source (classic cross-reference tables and
 * PDF 1.5 object and cross-reference streams alike) and copies its pages with the attributes they inherit from
 * their page tree (/Resources, /MediaBox, /CropBox, /Rotate). The merged file is written with a classic
 * cross-reference table and no object streams, the way printers' drivers read it most surely. Encrypted PDFs are
 * refused; what the old catalogs held besides the pages (outlines, forms, names) is left out.
 */

export class PdfMergeError extends Error {
  override name = 'PdfMergeError';
}

async function load(pdf: Buffer): Promise<PDFDocument> {
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(pdf, {
      updateMetadata: false,
      throwOnInvalidObject: true,
      ignoreEncryption: true,
    });
  } catch (error) {
    throw new PdfMergeError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  // Refused on the trailer's word alone: pdf-lib would take a dangling /Encrypt for a plain PDF.
  if (source.context.trailerInfo.Encrypt !== undefined)
    throw new PdfMergeError('encrypted PDFs cannot be merged');
  return source;
}

/** One PDF with every page of `pdfs`, in order. A single PDF is returned as it is. */
export async function mergePdfs(pdfs: readonly Buffer[]): Promise<Buffer> {
  if (pdfs.length === 0) throw new PdfMergeError('nothing to merge');
  if (pdfs.length === 1) return pdfs[0]!;
  const merged = await PDFDocument.create({ updateMetadata: false });
  for (const pdf of pdfs) {
    const source = await load(pdf);
    const pages = await merged.copyPages(source, source.getPageIndices());
    for (const page of pages) merged.addPage(page);
  }
  const bytes = Buffer.from(await merged.save({ useObjectStreams: false }));
  // pdf-lib stops right after %%EOF; the end-of-line after it is what line-reading tools look for.
  return Buffer.concat([bytes, Buffer.from('\n')]);
}
