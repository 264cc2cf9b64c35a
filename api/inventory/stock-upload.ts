import { ErrorAnswer, Ok, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { StockUploadProgress, StockUploadStarted } from '@api/contracts/inventory-stock';
import { ApiError, notFound } from '@api/errors';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadBody, uploadedFile } from '@api/sheet-upload';
import { uploadStockFile } from '@commands/inventory/stock-upload';
import { StockCode } from '@domain/inventory/codes';
import type { RowProblem } from '@domain/inventory/stock-upload';
import { type Language, translate } from '@infra/i18n';
import { isStale, type StockUploadRow, stockUpload } from '@projections/inventory/stock-uploads';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, isUuid } from './common';
import { commandStore, type StockDeps, tags } from './stock-common';

/**
 * Bulk stock adjustment by file (the use case: commands/inventory/stock-upload.ts). A file with bad rows answers 400
 * with every bad row in the caller's language; a good one is applied in the background (202 with an upload id).
 */

const translated = (language: Language, problems: RowProblem[]) =>
  problems.map((problem) => ({
    row: problem.row,
    column: problem.column,
    message: translate(language, problem.key, problem.params),
  }));

function progressOf(language: Language, row: StockUploadRow): StockUploadProgress {
  const stored = (Array.isArray(row.errors) ? row.errors : []) as unknown as RowProblem[];
  const whole = stored.filter((problem) => problem.row === 0);
  const stale = isStale(row);
  return {
    id: row.id,
    filename: row.filename,
    status: stale ? 'failed' : row.status,
    total: row.total,
    applied: row.applied,
    replayed: row.replayed,
    failed: row.failed,
    processed: row.applied + row.replayed + row.failed,
    errors: translated(
      language,
      stored.filter((problem) => problem.row !== 0),
    ),
    message: whole.length > 0 || stale ? translate(language, 'stock.upload.interrupted') : null,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

const access = { access: { permission: 'inventory-stock-adjustment' } } as const;

export const stockUploadRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, deps) => {
  const { db } = deps;
  uploadBody(app);

  const running = new Set<Promise<void>>();
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
    await Promise.allSettled([...running]);
  });

  app.post(
    '/api/inventory/stock/upload',
    {
      config: access,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Bulk stock adjustment: the CSV or XLSX file as the body (?filename=). Any bad row: 400 with every bad row, nothing applied; else 202 and the rows are applied in the background',
        querystring: UploadQuery,
        response: {
          202: Ok(StockUploadStarted),
          400: UploadRefusal,
          401: ErrorAnswer,
          403: ErrorAnswer,
          413: ErrorAnswer,
          415: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const file = uploadedFile(
        request.body,
        request.headers['content-type'],
        request.query.filename,
        () => new ApiError(415, StockCode.mediaType, 'stock.upload.media_type'),
      );
      const answer = await uploadStockFile(
        {
          db,
          store: commandStore(deps.store),
          log: request.log,
          stopping: () => closing,
          background: (task) => {
            const tracked = task.finally(() => running.delete(tracked));
            running.add(tracked);
          },
        },
        session,
        file,
      );
      if (answer.outcome === 'rows_refused') {
        const rows = translated(request.language, answer.problems);
        return reply.code(400).send({
          code: StockCode.uploadRows,
          msg: translate(request.language, 'stock.upload.rows_invalid', {
            count: new Set(answer.problems.map((problem) => problem.row)).size,
          }),
          errors: rows.map((row) => ({
            path: row.column ? `row ${row.row} ${row.column}` : `row ${row.row}`,
            message: row.message,
          })),
          rows,
        });
      }
      const started = { upload_id: answer.uploadId, status: 'running' as const, total: answer.total };
      return reply
        .code(202)
        .send(
          answer.outcome === 'running'
            ? ok(request, started, 'stock.upload.running')
            : ok(request, started, 'stock.upload.started', { total: answer.total }),
        );
    },
  );

  app.get(
    '/api/inventory/stock/upload/:id',
    {
      config: access,
      schema: {
        tags,
        summary: "A bulk upload's progress: running, done or failed, with counts and the rows refused",
        params: IdParams,
        response: {
          200: Ok(StockUploadProgress),
          400: ErrorAnswer,
          401: ErrorAnswer,
          403: ErrorAnswer,
          404: ErrorAnswer,
        },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const { id } = request.params;
      const row = isUuid(id) ? await stockUpload(db, tenantId, id) : undefined;
      if (!row) throw notFound();
      return ok(request, progressOf(request.language, row));
    },
  );
};
