import type { FastifyInstance } from 'fastify';
import { MAX_BYTES } from './read';

/** A bulk file (./read.ts) sent as the request body itself: CSV or XLSX, at most 5 MB. */

/** The body limit: the file cap plus room for nothing else (the body is the file). */
export const UPLOAD_BODY_LIMIT = MAX_BYTES + 64 * 1024;

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export const UPLOAD_TYPES = [
  'text/csv',
  XLSX_TYPE,
  // What browsers on Windows report for a .csv file, and the generic type of any file.
  'application/vnd.ms-excel',
  'application/octet-stream',
] as const;

/** The file is the body: read whole as bytes, in the routes of the plugin that calls this. */
export function uploadBody(app: Pick<FastifyInstance, 'addContentTypeParser'>): void {
  app.addContentTypeParser(
    [...UPLOAD_TYPES],
    { parseAs: 'buffer', bodyLimit: UPLOAD_BODY_LIMIT },
    (_request, body, done) => done(null, body),
  );
}

/**
 * The uploaded file and its name: `?filename=`, else one its content type suggests. A body that is not a file
 * (another content type) is `notAFile()`.
 */
export function uploadedFile(
  body: unknown,
  contentType: string | undefined,
  filename: string | undefined,
  notAFile: () => Error,
): { bytes: Buffer; filename: string } {
  if (!Buffer.isBuffer(body)) throw notAFile();
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return { bytes: body, filename: filename ?? (type === XLSX_TYPE ? 'upload.xlsx' : 'upload.csv') };
}
