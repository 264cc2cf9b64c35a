import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  NewSupplier,
  Supplier,
  SupplierChanges,
  SupplierOption,
  SupplierQuery,
  SupplierUploadResult,
} from '@api/contracts/purchases';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadBody } from '@api/sheet-upload';
import type { SupplierProblem } from '@commands/purchases/supplier-file';
import {
  createSupplier,
  existingSupplier,
  updateSupplier,
  uploadSuppliers,
} from '@commands/purchases/suppliers';
import { SUPPLIER_COLUMNS, SUPPLIER_LIMITS } from '@domain/purchases/supplier';
import { translate } from '@infra/i18n';
import { supplierAnswer, supplierList, supplierOptions } from '@projections/suppliers.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf, managing, type PurchaseDeps, tags, viewing } from './common';
import { fileOf, fileRefusal, rowsRefusal } from './upload-common';

/**
 * Purchasing suppliers (spec §3 Supplier: code, company and store name, contact number, email, address, city, postal
 * code, state, country, currency, VAT number, status). A plain table (commands/purchases/suppliers.ts writes it,
 * projections/suppliers.queries.ts reads it); each change writes an activity-log row. Purchase orders name their
 * supplier; an inactive supplier keeps its orders and takes no new one. A code, when given, is unique per account.
 */

const problemKeys: Record<SupplierProblem, string> = {
  column_count: 'purchases.upload.row.column_count',
  required: 'purchases.upload.row.required',
  too_long: 'purchases.upload.row.too_long',
  contact_invalid: 'purchases.supplier.contact_invalid',
  email_invalid: 'purchases.supplier.email_invalid',
  currency_invalid: 'purchases.supplier.currency_invalid',
  code_repeated: 'purchases.upload.row.code_repeated',
};

export const supplierRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  uploadBody(app);

  app.get(
    '/api/purchases/suppliers',
    {
      config: viewing,
      schema: {
        tags,
        summary: "The account's purchasing suppliers (ag-grid Infinite Row Model)",
        querystring: SupplierQuery,
        response: { 200: Ok(GridPage(Supplier)), ...refusals },
      },
    },
    async (request) => ok(request, await supplierList(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/purchases/suppliers/options',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'The active suppliers, by name, for the purchase form',
        response: { 200: Ok(z.array(SupplierOption)), ...refusals },
      },
    },
    async (request) => ok(request, await supplierOptions(db, seller(request).tenantId)),
  );

  app.get(
    '/api/purchases/suppliers/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'One supplier',
        params: IdParams,
        response: { 200: Ok(Supplier), ...refusals },
      },
    },
    async (request) =>
      ok(request, supplierAnswer(await existingSupplier(db, seller(request).tenantId, request.params.id))),
  );

  app.post(
    '/api/purchases/suppliers',
    {
      config: managing,
      schema: {
        tags,
        summary: 'Add a supplier (409, code 529, when the code is taken)',
        body: NewSupplier,
        response: { 200: Ok(Supplier), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const session = seller(request);
      const id = await createSupplier({ db }, actorOf(session), request.body);
      return ok(
        request,
        supplierAnswer(await existingSupplier(db, session.tenantId, id)),
        'purchases.supplier.created',
      );
    },
  );

  app.put(
    '/api/purchases/suppliers/:id',
    {
      config: managing,
      schema: {
        tags,
        summary:
          'Change a supplier, or deactivate it (status inactive): its orders stay, it takes no new one',
        params: IdParams,
        body: SupplierChanges,
        response: { 200: Ok(Supplier), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const session = seller(request);
      const id = await updateSupplier({ db }, actorOf(session), {
        id: request.params.id,
        changes: request.body,
      });
      return ok(
        request,
        supplierAnswer(await existingSupplier(db, session.tenantId, id)),
        'purchases.supplier.saved',
      );
    },
  );

  app.post(
    '/api/purchases/suppliers/upload',
    {
      config: managing,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Bulk supplier upload: the CSV (UTF-8 without BOM) or XLSX file as the body (?filename=), columns ' +
          `${SUPPLIER_COLUMNS.join(', ')}; a code already used updates that supplier. Any bad row: 400 (530) with every bad row, nothing applied`,
        querystring: UploadQuery,
        response: {
          200: Ok(SupplierUploadResult),
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
      const file = fileOf(request.body, request.headers['content-type'], request.query.filename);
      const upload = await uploadSuppliers({ db }, actorOf(session), file);
      if (upload.ok) return ok(request, upload.result, 'purchases.supplier.uploaded', upload.result);
      if (upload.file) throw fileRefusal(upload.file, upload.maxRows);
      return rowsRefusal(
        request,
        reply,
        upload.rows.map((problem) => ({
          row: problem.row,
          column: problem.column,
          key: problemKeys[problem.problem],
          params: {
            row: problem.row,
            columns: SUPPLIER_COLUMNS.join(', '),
            // The column's name in the caller's language, for a row message.
            column: problem.column
              ? translate(request.language, `purchases.supplier.column.${problem.column}`)
              : '',
            max: problem.column ? SUPPLIER_LIMITS[problem.column] : 0,
          },
        })),
        SUPPLIER_COLUMNS,
      );
    },
  );
};
