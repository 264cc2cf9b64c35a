import { ErrorAnswer, Ok, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { PurchaseUploadResult } from '@api/contracts/purchases';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadBody } from '@api/sheet-upload';
import { purchaseProcesses } from '@commands/purchases/processes';
import { uploadPurchases } from '@commands/purchases/upload-purchases';
import { PURCHASE_COLUMNS } from '@domain/purchases/purchase-file';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf, commandStore, managing, type PurchaseDeps, tags } from './common';
import { fileOf, fileRefusal, rowsRefusal } from './upload-common';

/** Bulk upload of purchase orders (commands/purchases/upload-purchases.ts checks the file and creates the drafts). */
export const purchaseUploadRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db, workflows } = deps;
  uploadBody(app);

  app.post(
    '/api/purchases/upload',
    {
      config: managing,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags,
        summary: `Bulk purchase upload: the CSV (UTF-8 without BOM) or XLSX file as the body (?filename=), columns ${PURCHASE_COLUMNS.join(', ')}, one item a row, rows sharing a reference make one order (a draft). Any bad row: 400 (530), nothing created`,
        querystring: UploadQuery,
        response: {
          200: Ok(PurchaseUploadResult),
          400: UploadRefusal,
          401: ErrorAnswer,
          403: ErrorAnswer,
          404: ErrorAnswer,
          409: ErrorAnswer,
          413: ErrorAnswer,
          415: ErrorAnswer,
          503: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const file = fileOf(request.body, request.headers['content-type'], request.query.filename);
      const upload = await uploadPurchases(
        { db, store: commandStore(deps.store), processes: purchaseProcesses(workflows) },
        actorOf(session),
        { ...file, occurredAt: new Date().toISOString() },
      );
      if (upload.ok) {
        const { created, existing } = upload.result;
        return ok(request, upload.result, 'purchases.upload.done', { created, existing });
      }
      if (upload.file) throw fileRefusal(upload.file, upload.maxRows);
      return rowsRefusal(request, reply, upload.rows, PURCHASE_COLUMNS);
    },
  );
};
