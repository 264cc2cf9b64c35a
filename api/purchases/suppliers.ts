import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { ErrorAnswer, GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  NewSupplier,
  Supplier,
  SupplierChanges,
  SupplierOption,
  SupplierQuery,
  SupplierUploadResult,
} from '@api/contracts/purchases';
import { router } from '@api/route';
import { uploadBody } from '@api/sheet-upload';
import {
  createSupplier,
  supplierDetail,
  updateSupplier,
  uploadSuppliers,
} from '@commands/purchases/suppliers';
import { SUPPLIER_COLUMNS } from '@domain/purchases/supplier';
import { supplierList, supplierOptions } from '@projections/suppliers.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { managing, type PurchaseDeps, tags, viewerOf, viewing } from './common';
import { fileOf, uploadAnswer, uploadSpec } from './upload-common';

/**
 * Purchasing suppliers (spec §3 Supplier): a plain table that commands/purchases/suppliers.ts writes (each change with
 * an activity-log row) and projections/suppliers.queries.ts reads. An inactive supplier keeps its orders and takes no
 * new one. Viewing: purchases-index; changing: purchases-manage.
 */
export const supplierRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  uploadBody(app);
  const route = router(app, { tags, access: viewing });
  const saving = { access: managing, answer: Supplier, errors: { 409: ErrorAnswer } } as const;

  route.get(
    '/api/purchases/suppliers',
    {
      summary: "The account's purchasing suppliers (ag-grid Infinite Row Model)",
      query: SupplierQuery,
      answer: GridPage(Supplier),
    },
    async (request) => ok(request, await supplierList(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/purchases/suppliers/options',
    { summary: 'The active suppliers, by name, for the purchase form', answer: z.array(SupplierOption) },
    async (request) => ok(request, await supplierOptions(db, seller(request).tenantId)),
  );

  route.get(
    '/api/purchases/suppliers/:id',
    { summary: 'One supplier', params: IdParams, answer: Supplier },
    async (request) => ok(request, await supplierDetail(db, seller(request).tenantId, request.params.id)),
  );

  route.post(
    '/api/purchases/suppliers',
    { summary: 'Add a supplier (409, code 529, when the code is taken)', body: NewSupplier, ...saving },
    async (request) =>
      ok(
        request,
        await createSupplier({ db }, viewerOf(request), request.body),
        'purchases.supplier.created',
      ),
  );

  route.put(
    '/api/purchases/suppliers/:id',
    {
      summary: 'Change a supplier, or deactivate it (status inactive): its orders stay, it takes no new one',
      params: IdParams,
      body: SupplierChanges,
      ...saving,
    },
    async (request) => {
      const input = { id: request.params.id, changes: request.body };
      return ok(request, await updateSupplier({ db }, viewerOf(request), input), 'purchases.supplier.saved');
    },
  );

  route.post(
    '/api/purchases/suppliers/upload',
    uploadSpec(
      'Bulk supplier upload: the CSV (UTF-8 without BOM) or XLSX file as the body (?filename=), columns ' +
        `${SUPPLIER_COLUMNS.join(', ')}; a code already used updates that supplier. Any bad row: 400 (530) with every bad row, nothing applied`,
      SupplierUploadResult,
    ),
    async (request, reply) => {
      const file = { ...fileOf(request), language: request.language };
      const upload = await uploadSuppliers({ db }, viewerOf(request), file);
      return uploadAnswer(
        request,
        reply,
        upload,
        SUPPLIER_COLUMNS,
        'purchases.supplier.uploaded',
        (done) => done,
      );
    },
  );
};
