import { ApiError } from '@api/errors';
import { uploadedFile } from '@api/sheet-upload';
import type { RowProblem } from '@commands/purchases/upload-purchases';
import { PurchaseCode } from '@domain/purchases/codes';
import { translate } from '@infra/i18n';
import { type FileProblem, MAX_BYTES } from '@infra/sheets/read';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What the supplier and purchase bulk uploads share: the file as the request body (api/sheet-upload.ts; CSV or XLSX,
 * at most 5 MB), the 400 of a file that cannot be read (531), and the 400 of a file with bad rows (530), every bad
 * row listed.
 */

/** The uploaded file and its name (the extension decides how it is read). */
export const fileOf = (body: unknown, contentType: string | undefined, filename: string | undefined) =>
  uploadedFile(
    body,
    contentType,
    filename,
    () => new ApiError(415, PurchaseCode.uploadFile, 'purchases.upload.media_type'),
  );

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
type StoredProblem = RowProblem;

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
