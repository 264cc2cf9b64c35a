import { ErrorAnswer, Ok, ok } from '@api/answers';
import { ApiError } from '@api/errors';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadedFile } from '@api/sheet-upload';
import type { SheetUpload } from '@commands/purchases/upload-purchases';
import { PurchaseCode } from '@domain/purchases/codes';
import { type MessageParams, translate } from '@infra/i18n';
import { type FileProblem, fileProblemParams } from '@infra/sheets/read';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { managing } from './common';

/**
 * What the supplier and purchase bulk uploads share: the file as the request body (api/sheet-upload.ts; CSV or XLSX,
 * at most 5 MB), the 400 of a file that cannot be read (531), and the 400 of a file with bad rows (530), every bad
 * row listed.
 */

/** An upload route's spec: the file as the body, `?filename=`, and its refusals beyond `errors`. */
export const uploadSpec = (summary: string, answer: z.ZodType, errors: Record<number, z.ZodType> = {}) => ({
  summary,
  access: managing,
  bodyLimit: UPLOAD_BODY_LIMIT,
  query: UploadQuery,
  raw: {
    200: Ok(answer),
    400: UploadRefusal,
    401: ErrorAnswer,
    403: ErrorAnswer,
    413: ErrorAnswer,
    415: ErrorAnswer,
    ...errors,
  },
});

/** The uploaded file and its name (the extension decides how it is read). */
export const fileOf = (request: FastifyRequest<{ Querystring: { filename?: string } }>) =>
  uploadedFile(
    request.body,
    request.headers['content-type'],
    request.query.filename,
    () => new ApiError(415, PurchaseCode.uploadFile, 'purchases.upload.media_type'),
  );

const fileProblemKeys: Record<FileProblem, string> = {
  too_large: 'purchases.upload.file.too_large',
  type: 'purchases.upload.file.type',
  encoding: 'purchases.upload.file.encoding',
  empty: 'purchases.upload.file.empty',
  too_many_rows: 'purchases.upload.file.too_many_rows',
  unreadable: 'purchases.upload.file.unreadable',
  too_large_unpacked: 'purchases.upload.file.too_large_unpacked',
};

/**
 * The answer of an upload: done, with the message `key`; a file that cannot be read; or the 400 of a file with bad
 * rows — every bad row, in row then column order.
 */
export function uploadAnswer<Result>(
  request: FastifyRequest,
  reply: FastifyReply,
  upload: SheetUpload<Result>,
  columns: readonly string[],
  key: string,
  params: (result: Result) => MessageParams,
) {
  if (upload.ok) return ok(request, upload.result, key, params(upload.result));
  if (upload.file) {
    throw new ApiError(
      400,
      PurchaseCode.uploadFile,
      fileProblemKeys[upload.file],
      fileProblemParams(upload.file, upload.maxRows),
    );
  }
  const problems = upload.rows;
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
