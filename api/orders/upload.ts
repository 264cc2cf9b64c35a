import { seller } from '@api/auth/session';
import { OrderUploadResult } from '@api/contracts/order-upload';
import { ApiError } from '@api/errors';
import { uploadAnswer, uploadSpec } from '@api/purchases/upload-common';
import { router } from '@api/route';
import { uploadBody, uploadedFile, uploadHistoryRoutes } from '@api/sheet-upload';
import { uploadOrders } from '@commands/orders/upload-orders';
import { wholeStore } from '@commands/support/document';
import { OrderCode } from '@domain/orders/codes';
import { ORDER_FILE_COLUMNS } from '@domain/orders/order-file';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type OrderDeps, tags } from './common';

/**
 * POST /api/orders/upload (spec §6 `orders-upload`; issue 14): manual orders from a CSV or XLSX file, checked whole
 * by commands/orders/upload-orders.ts, refused with every bad row and reason at once, the upload's shared shapes
 * (api/purchases/upload-common.ts) with the order board's codes; every file sent is in the upload history
 * (GET /api/orders/uploads, /api/orders/upload/:id and its file), behind the same key.
 */
export const orderUploadRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const store = wholeStore(deps.store, 'order');
  uploadBody(app);
  const access = { permission: 'orders-upload' } as const;
  const route = router(app, { tags, access });
  route.post(
    '/api/orders/upload',
    {
      ...uploadSpec(
        `Bulk upload of manual orders: the CSV (UTF-8, a BOM allowed) or XLSX file as the body (?filename=), columns ${ORDER_FILE_COLUMNS.join(', ')}, one line a row, rows sharing an order number make one order of the named store. Any bad row: 400 (599) listing every bad row, nothing created; an order number the store has already is left as it is`,
        OrderUploadResult,
      ),
      // uploadSpec names the purchases' key: this upload has its own.
      access,
    },
    async (request, reply) => {
      const { tenantId, userId } = seller(request);
      const file = uploadedFile(
        request.body,
        request.headers['content-type'],
        request.query.filename,
        () => new ApiError(415, OrderCode.uploadFile, 'orders.upload.media_type'),
      );
      const upload = await uploadOrders(
        { db: deps.db, store },
        { tenantId, userId },
        { ...file, occurredAt: new Date().toISOString() },
      );
      return uploadAnswer(
        request,
        reply,
        upload,
        ORDER_FILE_COLUMNS,
        'orders.upload.done',
        (done) => ({ created: done.created, existing: done.existing }),
        { prefix: 'orders', file: OrderCode.uploadFile, rows: OrderCode.uploadRows },
      );
    },
  );
  uploadHistoryRoutes(route, { db: deps.db, kind: 'order', base: '/api/orders', what: 'order' });
};
