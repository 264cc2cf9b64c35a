import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  CopyListingsAnswer,
  CopyListingsBody,
  ListingTemplateQuery,
  ListingUploadRefusal,
  ListingUploadResult,
} from '@api/contracts/listings';
import { ApiError } from '@api/errors';
import { attachmentName, fileAnswers, sendFile } from '@api/files';
import { uploadSpec } from '@api/purchases/upload-common';
import { router } from '@api/route';
import { uploadBody, uploadedFile, uploadHistoryRoutes } from '@api/sheet-upload';
import { copyListings } from '@commands/listings/copy-listings';
import type { ListingDeps } from '@commands/listings/support';
import { type ListingRowProblem, uploadListings } from '@commands/listings/upload-listings';
import { LIST_SEPARATOR, LISTING_FILE_COLUMNS } from '@domain/listings/listing-file';
import { ListingCode } from '@domain/listings/rules';
import { type Language, translate } from '@infra/i18n';
import { fileProblemParams } from '@infra/sheets/read';
import { SHEET_TYPES, sheetFile } from '@infra/sheets/write';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * The listings bulk upload and copy (spec §5 "Bulk upload", shell.md `/products/copy-listings`; issue 15), behind
 * listings-manage: `POST /api/listings/upload` (the CSV, UTF-8 without BOM, or XLSX as the body), its template, its
 * upload history (`/api/listings/uploads`, `/api/listings/upload/:id` and its file) and `POST /api/listings/copy`.
 */

const rowsOf = (language: Language, problems: ListingRowProblem[]) =>
  problems.map((problem) => ({
    row: problem.row,
    column: problem.column,
    code: problem.code,
    message: translate(language, problem.key, problem.params),
  }));

export const listingUploadRoutes: FastifyPluginAsyncZod<ListingDeps> = async (app, deps) => {
  uploadBody(app);
  const access = { permission: 'listings-manage' } as const;
  const route = router(app, { tags: ['listings'], access });

  route.post(
    '/api/listings/upload',
    {
      ...uploadSpec(
        `Bulk upload of listings: the CSV (UTF-8 without BOM) or XLSX file as the body (?filename=), the first row a header (ignored), columns ${LISTING_FILE_COLUMNS.join(', ')} (several stores, logistics or images separated by "${LIST_SEPARATOR}"); one row per SKU, rows sharing a handle make one listing with variants, saved as a draft as the editor saves it. A listing with a bad row is not saved, every bad row named with its code; none saved: 400 (728)`,
        ListingUploadResult,
        { 400: ListingUploadRefusal },
      ),
      // uploadSpec names the purchases' key: this upload has listings-manage.
      access,
    },
    async (request, reply) => {
      const file = uploadedFile(
        request.body,
        request.headers['content-type'],
        request.query.filename,
        () => new ApiError(415, ListingCode.upload, 'listing.upload.media_type'),
      );
      const upload = await uploadListings(deps, seller(request), file);
      if (upload.ok) {
        const { result } = upload;
        return ok(
          request,
          { ...result, refused: rowsOf(request.language, upload.refused) },
          'listing.upload.done',
          { count: result.saved, existing: result.existing, refused: upload.refused.length },
        );
      }
      if (upload.file)
        throw new ApiError(
          400,
          ListingCode.upload,
          `listing.upload.file.${upload.file}`,
          upload.file === 'bom' ? {} : fileProblemParams(upload.file, upload.maxRows),
        );
      const rows = rowsOf(request.language, upload.rows);
      return reply.code(400).send({
        code: ListingCode.uploadRows,
        msg: translate(request.language, 'listing.upload.rows_invalid', {
          count: new Set(rows.map((row) => row.row)).size,
        }),
        errors: rows.map((row) => ({
          path: row.column ? `row ${row.row} ${row.column}` : `row ${row.row}`,
          message: row.message,
        })),
        rows,
      });
    },
  );

  route.get(
    '/api/listings/upload/template',
    {
      summary: 'The bulk upload template: the header row alone, as a CSV (UTF-8 without BOM) or an XLSX',
      query: ListingTemplateQuery,
      raw: fileAnswers('The template, as an attachment', Object.values(SHEET_TYPES)),
    },
    async (request, reply) => {
      const { format } = request.query;
      const name = attachmentName(`listings-template.${format}`);
      // The export writer's CSV starts with a BOM, which this upload refuses: the CSV template is the bare header.
      if (format === 'csv')
        return sendFile(reply, SHEET_TYPES.csv, Buffer.from(`${LISTING_FILE_COLUMNS.join(',')}\r\n`), name);
      const columns = LISTING_FILE_COLUMNS.map((header) => ({ header, width: 18 }));
      const file = sheetFile('xlsx', { name: 'listings', columns }, (async function* () {})(), (error) =>
        request.log.error({ err: error }, 'listing template failed'),
      );
      return sendFile(reply, file.type, file.body, name);
    },
  );

  uploadHistoryRoutes(route, { db: deps.db, kind: 'listing', base: '/api/listings', what: 'listing' });

  route.post(
    '/api/listings/copy',
    {
      summary:
        'Copy listings: each becomes a new draft with the same content, for the stores named (1 to 20) or its own; each refusal answered by listing',
      body: CopyListingsBody,
      answer: CopyListingsAnswer,
    },
    async (request) =>
      ok(
        request,
        ...(await copyListings(deps, { ...seller(request), language: request.language }, request.body)),
      ),
  );
};
