import { ErrorAnswer, Ok, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { StockUploadStarted } from '@api/contracts/inventory-stock';
import { ApiError } from '@api/errors';
import { router } from '@api/route';
import {
  UPLOAD_BODY_LIMIT,
  UploadQuery,
  UploadRefusal,
  uploadBody,
  uploadedFile,
  uploadHistoryRoutes,
} from '@api/sheet-upload';
import { backgroundUploads, rowsRefusedAnswer, uploadStockFile } from '@commands/inventory/stock-upload';
import { StockCode } from '@domain/inventory/codes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandStore, type StockDeps, tags } from './stock-common';

/**
 * Bulk stock adjustment by file (commands/inventory/stock-upload.ts): checked whole, applied in the background; and
 * its upload history, behind the same key.
 */

const answers = { 400: ErrorAnswer, 401: ErrorAnswer, 403: ErrorAnswer } as const;

export const stockUploadRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, deps) => {
  const { db } = deps;
  uploadBody(app);
  const route = router(app, { tags, access: { permission: 'inventory-stock-adjustment' } });

  const uploads = backgroundUploads();
  app.addHook('onClose', uploads.close);

  route.post(
    '/api/inventory/stock/upload',
    {
      summary: 'Bulk stock adjustment by a CSV or XLSX body: checked whole, then applied in the background',
      bodyLimit: UPLOAD_BODY_LIMIT,
      query: UploadQuery,
      raw: {
        202: Ok(StockUploadStarted),
        ...answers,
        400: UploadRefusal,
        413: ErrorAnswer,
        415: ErrorAnswer,
      },
    },
    async (request, reply) => {
      const file = uploadedFile(
        request.body,
        request.headers['content-type'],
        request.query.filename,
        () => new ApiError(415, StockCode.mediaType, 'stock.upload.media_type'),
      );
      const upload = { db, store: commandStore(deps.store), log: request.log, ...uploads };
      const answer = await uploadStockFile(upload, seller(request), file);
      if (answer.outcome === 'rows_refused')
        return reply.code(400).send(rowsRefusedAnswer(request.language, answer.problems));
      const started = { upload_id: answer.uploadId, status: answer.status, total: answer.total };
      const message = answer.outcome === 'running' ? 'stock.upload.running' : 'stock.upload.started';
      return reply.code(202).send(ok(request, started, message, { count: answer.total }));
    },
  );

  uploadHistoryRoutes(route, {
    db,
    kind: 'stock_adjustment',
    base: '/api/inventory/stock',
    what: 'stock adjustment',
  });
};
