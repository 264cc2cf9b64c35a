import { ApiError } from '@api/errors';
import { type MessageParams, translate } from '@api/i18n';
import { type FileProblem, MAX_BYTES } from '@commands/purchases/sheet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PurchaseCode } from './common';

/**
 * What the supplier and purchase bulk uploads share: the file as the request body (CSV or XLSX, at most 5 MB), the
 * 400 of a file that cannot be read (531), and the 400 of a file with bad rows (530), every bad row listed.
 */

export const UPLOAD_BODY_LIMIT = MAX_BYTES + 64 * 1024;
export const UPLOAD_TYPES = [
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
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

const fileProblemKeys: Record<FileProblem, string> = {
  too_large: 'purchases.upload.file.too_large',
  type: 'purchases.upload.file.type',
  bom: 'purchases.upload.file.bom',
  encoding: 'purchases.upload.file.encoding',
  empty: 'purchases.upload.file.empty',
  too_many_rows: 'purchases.upload.file.too_many_rows',
  unreadable: 'purchases.upload.file.unreadable',
};

export const fileRefusal = (problem: FileProblem, maxRows: number) =>
  new ApiError(400, PurchaseCode.uploadFile, fileProblemKeys[problem], {
    max: problem === 'too_many_rows' ? maxRows : MAX_BYTES / 1024 / 1024,
  });

/** A row problem with its message key. */
export interface StoredProblem {
  row: number;
  column: string | null;
  key: string;
  params: MessageParams;
}

/** The 400 of a file with bad rows: every bad row, in row then column order. */
export function rowsRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  problems: StoredProblem[],
  columns: readonly string[],
) {
  const order = (column: string | null) => (column === null ? -1 : columns.indexOf(column));
  problems.sort((a, b) => a.row - b.row || order(a.column) - order(b.column));
  const rows = problems.map((problem) => ({
    row: problem.row,
    column: problem.column,
    message: translate(request.language, problem.key, problem.params),
  }));
  return reply.code(400).send({
    code: PurchaseCode.uploadRows,
    msg: translate(request.language, 'purchases.upload.rows_invalid', {
      count: new Set(problems.map((problem) => problem.row)).size,
    }),
    errors: rows.map((row) => ({
      path: row.column ? `row ${row.row} ${row.column}` : `row ${row.row}`,
      message: row.message,
    })),
    rows,
  });
}
