import { logActivity } from '@api/activity';
import { ErrorAnswer, Ok, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadBody } from '@api/sheet-upload';
import {
  MAX_PURCHASE_ROWS,
  PURCHASE_COLUMNS,
  type PurchaseFileProblem,
  parsePurchaseFile,
} from '@commands/purchases/purchase-file';
import { eventIdFor } from '@commands/support/ids';
import { fromUnits, toUnits } from '@domain/purchases/money';
import { subtotalUnits } from '@domain/purchases/purchase';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { managing, type PurchaseDeps, tags } from './common';
import { createPurchase } from './purchases';
import { fileOf, fileRefusal, rowsRefusal, type StoredProblem } from './upload-common';

/**
 * Bulk upload of purchase orders (commands/purchases/purchase-file.ts has the format: one item a row, grouped into
 * orders by the reference column). The whole file is checked before anything is recorded: format, then every
 * supplier, warehouse and master code code against the account's (a combo or an inactive supplier is a bad row), and
 * each order's discount against its subtotal. Any bad row: 400 (530) with every bad row listed, nothing created.
 * A good file creates each order as a draft (pending) with its workflow. Each order's id derives from the file's
 * hash and its reference, so uploading the same file again creates nothing twice.
 */

const problemKeys: Record<PurchaseFileProblem, string> = {
  column_count: 'purchases.upload.row.column_count',
  required: 'purchases.upload.row.required',
  too_long: 'purchases.upload.row.too_long',
  quantity_invalid: 'purchases.quantity_invalid',
  unit_cost_invalid: 'purchases.unit_cost_invalid',
  date_invalid: 'purchases.date_invalid',
  discount_invalid: 'purchases.discount_invalid',
  differs: 'purchases.upload.row.differs',
  master_code_repeated: 'purchases.upload.row.master_code_repeated',
};

const UploadResult = z.object({
  created: z.number().int(),
  /** Orders already made by an earlier upload of the same file. */
  existing: z.number().int(),
  purchases: z.array(z.object({ id: z.string(), po_number: z.string(), reference: z.string() })),
});

export const purchaseUploadRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, deps) => {
  const { db } = deps;
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
          200: Ok(UploadResult),
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
      const { tenantId } = session;
      const { bytes, filename } = fileOf(
        request.body,
        request.headers['content-type'],
        request.query.filename,
      );
      const parsed = await parsePurchaseFile(bytes, filename);
      if (!parsed.ok) {
        if (parsed.file) throw fileRefusal(parsed.file, MAX_PURCHASE_ROWS);
        return rowsRefusal(
          request,
          reply,
          parsed.rows.map(
            (problem): StoredProblem => ({
              row: problem.row,
              column: problem.column ?? null,
              key: problemKeys[problem.problem],
              params: {
                row: problem.row,
                columns: PURCHASE_COLUMNS.join(', '),
                column: problem.column ?? '',
                max: problem.column === 'reference' ? 100 : 1_000_000_000,
              },
            }),
          ),
          PURCHASE_COLUMNS,
        );
      }

      // Every code the file names, against the account's.
      const lower = (values: string[]) => [...new Set(values.map((value) => value.toLowerCase()))];
      const [suppliers, places, codes] = await Promise.all([
        db
          .selectFrom('suppliers')
          .select(['id', 'status', 'name', sql<string>`lower(code)`.as('key')])
          .where('tenant_id', '=', tenantId)
          .where(
            sql<boolean>`lower(code) = ANY(${lower(parsed.orders.map((order) => order.supplierCode))}::text[])`,
          )
          .execute(),
        db
          .selectFrom('warehouses')
          .select(['id', sql<string>`lower(code)`.as('key')])
          .where('tenant_id', '=', tenantId)
          .where(
            sql<boolean>`lower(code) = ANY(${lower(parsed.orders.map((order) => order.warehouseCode))}::text[])`,
          )
          .execute(),
        db
          .selectFrom('master_codes')
          .select(['id', 'code', 'type', sql<string>`lower(code)`.as('key')])
          .where('tenant_id', '=', tenantId)
          .where(
            sql<boolean>`lower(code) = ANY(${lower(parsed.orders.flatMap((order) => order.lines.map((line) => line.masterCode)))}::text[])`,
          )
          .execute(),
      ]);
      const supplierBy = new Map(suppliers.map((row) => [row.key, row]));
      const placeBy = new Map(places.map((row) => [row.key, row]));
      const codeBy = new Map(codes.map((row) => [row.key, row]));
      const problems: StoredProblem[] = [];
      const problem = (row: number, column: string, key: string, params: Record<string, string | number>) =>
        problems.push({ row, column, key, params });
      for (const order of parsed.orders) {
        const supplier = supplierBy.get(order.supplierCode.toLowerCase());
        if (!supplier)
          problem(order.row, 'supplier_code', 'purchases.upload.row.supplier_not_found', {
            code: order.supplierCode,
          });
        else if (supplier.status !== 'active')
          problem(order.row, 'supplier_code', 'purchases.supplier_inactive', { name: supplier.name });
        if (!placeBy.has(order.warehouseCode.toLowerCase()))
          problem(order.row, 'warehouse_code', 'purchases.upload.row.warehouse_not_found', {
            code: order.warehouseCode,
          });
        for (const line of order.lines) {
          const code = codeBy.get(line.masterCode.toLowerCase());
          if (!code)
            problem(line.row, 'master_code', 'purchases.master_code_not_found', { code: line.masterCode });
          else if (code.type === 'combo')
            problem(line.row, 'master_code', 'purchases.combo_refused', { code: code.code });
        }
        const subtotal = subtotalUnits(
          order.lines.map((line) => ({
            masterCodeId: line.masterCode,
            quantity: line.quantity,
            unitCost: line.unitCost,
          })),
        );
        if (toUnits(order.discount) > subtotal) {
          problem(order.row, 'discount', 'purchases.discount_too_large', {
            discount: order.discount,
            subtotal: fromUnits(subtotal),
          });
        }
        if (order.estimatedArrival && order.date && order.estimatedArrival < order.date) {
          problem(order.row, 'estimated_arrival', 'purchases.arrival_before_date', {});
        }
      }
      if (problems.length > 0) return rowsRefusal(request, reply, problems, PURCHASE_COLUMNS);

      const made: z.infer<typeof UploadResult> = { created: 0, existing: 0, purchases: [] };
      for (const order of parsed.orders) {
        const purchaseId = eventIdFor(
          `purchase-upload:${tenantId}:${parsed.hash}:${order.reference.toLowerCase()}`,
        );
        const created = await createPurchase(
          deps,
          session,
          purchaseId,
          {
            reference: order.reference,
            ...(order.date ? { date: order.date } : {}),
            supplier_id: supplierBy.get(order.supplierCode.toLowerCase())!.id,
            warehouse_id: placeBy.get(order.warehouseCode.toLowerCase())!.id,
            items: order.lines.map((line) => ({
              master_code_id: codeBy.get(line.masterCode.toLowerCase())!.id,
              quantity: line.quantity,
              unit_cost: line.unitCost,
            })),
            discount: order.discount,
            estimated_arrival: order.estimatedArrival,
            note: '',
            place: false,
          },
          { commandId: `purchase-create:${purchaseId}` },
        );
        if (created.replayed) made.existing++;
        else made.created++;
        made.purchases.push({ id: purchaseId, po_number: created.poNumber, reference: order.reference });
      }
      await logActivity(db, {
        tenantId,
        userId: session.userId,
        action: 'purchase.uploaded',
        subjectType: 'purchase_upload',
        subjectId: parsed.hash,
        detail: { filename, created: made.created, existing: made.existing },
      });
      return ok(request, made, 'purchases.upload.done', { created: made.created, existing: made.existing });
    },
  );
};
