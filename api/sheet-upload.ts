import { ErrorAnswer, GridPage, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { UploadDetail, UploadListQuery, UploadSummary } from '@api/contracts/sheet-uploads';
import { notFound } from '@api/errors';
import { attachmentName } from '@api/orders/print-common';
import type { router } from '@api/route';
import type { Db, UploadKind } from '@infra/db';
import { listUploads, uploadDetail, uploadedFileOf } from '@projections/sheet-uploads.queries';
import { z } from 'zod';

/** A bulk file sent as the request body itself (infra/sheets/upload.ts): its query and its refusal. */

export { UPLOAD_BODY_LIMIT, UPLOAD_TYPES, uploadBody, uploadedFile } from '@infra/sheets/upload';

/** The upload's query: the file's name (its extension decides how it is read). */
export const UploadQuery = z.strictObject({
  filename: z.string().trim().min(1).max(255).optional(),
});

/** The 400 of a file with bad rows: every bad row with its problem, nothing applied. */
export const UploadRefusal = ErrorAnswer.extend({
  rows: z
    .array(z.object({ row: z.number().int(), column: z.string().nullable(), message: z.string() }))
    .optional(),
});

const FILE_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/**
 * A kind's upload history (projections/sheet-uploads.queries.ts) under `base`: `GET <base>/uploads` (the grid),
 * `GET <base>/upload/:id` (one upload with every refused row) and `GET <base>/upload/:id/file` (the file as it was
 * sent), behind the router's key — the same key as the upload itself.
 */
export function uploadHistoryRoutes(
  route: ReturnType<typeof router>,
  { db, kind, base, what }: { db: Db; kind: UploadKind; base: string; what: string },
) {
  route.get(
    `${base}/uploads`,
    {
      summary: `The ${what} upload history for ag-grid: each file with who sent it, when, its status (pending, in_progress, complete, failed) and its counts`,
      query: UploadListQuery,
      answer: GridPage(UploadSummary),
    },
    async (request) => ok(request, await listUploads(db, seller(request).tenantId, kind, request.query)),
  );

  route.get(
    `${base}/upload/:id`,
    {
      summary: `One ${what} upload: its status and counts, and every row refused with why (an upload that stopped reads as failed)`,
      params: IdParams,
      answer: UploadDetail,
    },
    async (request) => {
      const detail = await uploadDetail(
        db,
        seller(request).tenantId,
        kind,
        request.params.id,
        request.language,
      );
      if (!detail) throw notFound();
      return ok(request, detail);
    },
  );

  route.get(
    `${base}/upload/:id/file`,
    {
      summary: `The file of one ${what} upload, as it was sent`,
      params: IdParams,
      raw: {
        200: {
          description: 'The file; `content-disposition: attachment; filename="<its name>"`',
          content: {
            'text/csv': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
            [FILE_TYPES.xlsx!]: { schema: z.any().meta({ type: 'string', format: 'binary' }) },
          },
        } as never,
        ...refusals,
      },
    },
    async (request, reply) => {
      const file = await uploadedFileOf(db, seller(request).tenantId, kind, request.params.id);
      if (!file) throw notFound();
      const extension = file.filename.split('.').pop()?.toLowerCase() ?? '';
      return reply
        .code(200)
        .header('content-type', FILE_TYPES[extension] ?? 'application/octet-stream')
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentName(file.filename))
        .send(file.content);
    },
  );
}
