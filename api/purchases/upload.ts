import { ErrorAnswer } from '@api/answers';
import { PurchaseUploadResult } from '@api/contracts/purchases';
import { router } from '@api/route';
import { uploadBody, uploadHistoryRoutes } from '@api/sheet-upload';
import { purchaseProcesses } from '@commands/purchases/processes';
import { uploadPurchases } from '@commands/purchases/upload-purchases';
import { PURCHASE_COLUMNS } from '@domain/purchases/purchase-file';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { commandDeps, managing, type PurchaseDeps, tags, viewerOf } from './common';
import { fileOf, uploadAnswer, uploadSpec } from './upload-common';

/**
 * Bulk upload of purchase orders (commands/purchases/upload-purchases.ts checks the file and creates the drafts), and
 * its upload history, behind the same key.
 */
export const purchaseUploadRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  uploadBody(app);
  router(app, { tags }).post(
    '/api/purchases/upload',
    uploadSpec(
      `Bulk purchase upload: the CSV (UTF-8 without BOM) or XLSX file as the body (?filename=), columns ${PURCHASE_COLUMNS.join(', ')}, one item a row, rows sharing a reference make one order (a draft). Any bad row: 400 (530), nothing created`,
      PurchaseUploadResult,
      { 404: ErrorAnswer, 409: ErrorAnswer, 503: ErrorAnswer },
    ),
    async (request, reply) => {
      const purchasing = commandDeps(deps);
      const upload = await uploadPurchases(
        { ...purchasing, processes: purchaseProcesses(purchasing.workflows) },
        viewerOf(request),
        { ...fileOf(request), occurredAt: new Date().toISOString() },
      );
      return uploadAnswer(request, reply, upload, PURCHASE_COLUMNS, 'purchases.upload.done', (done) => ({
        created: done.created,
        existing: done.existing,
      }));
    },
  );
  uploadHistoryRoutes(router(app, { tags, access: managing }), {
    db: deps.db,
    kind: 'purchase',
    base: '/api/purchases',
    what: 'purchase',
  });
};
