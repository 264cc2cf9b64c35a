import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { DateFilter, gridQuery, setFilter } from '@api/contracts/grid';
import { ApiError, invalid, notFound } from '@api/errors';
import { isUuid } from '@api/ids';
import { AwbError, type AwbOrder, storesAwbSource } from '@commands/printing/awb';
import type { OrderView } from '@commands/printing/order-view';
import { mergePdfs, PdfMergeError } from '@commands/printing/pdf-merge';
import { alreadyPrinted, limitedTo, loadOrders, markPrinted, type Printer } from '@commands/printing/print';
import { type DrawnDocument, loadPrintSettings } from '@commands/printing/settings';
import { PRINT_DOCUMENTS, PRINT_ORIGINS, type PrintDocument } from '@domain/orders/order';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { allOf, dateWhere, pageWindow, searchWhere, setWhere, sortTerms } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import {
  assertMayPrint,
  attachmentName,
  type OrderDocumentsDeps,
  PRINT_LOG_KEY,
  PrintCode,
  printTags as tags,
} from './print-common';
import { type PrintableOrder, renderOrderDocuments } from './print-pdf';
import { printSettingsRoutes } from './print-settings';

/**
 * Printing order documents (spec §2 "printing settings for invoice, AWB, delivery order, pack list and check
 * list"; §9 print log types AWB/INV/PL/CL/DO and origins unscan, smart scan, shipped, processed):
 *
 * POST /api/orders/print { document: AWB|INV|PL|CL|DO, order_ids: [1..200], origin } → application/pdf
 *   One order or many in one PDF, in the order given (each order on its own page or pages). INV, PL, CL and DO are
 *   drawn by Kedai with the account's print settings (api/orders/print-pdf.ts); AWB is the marketplace's shipping
 *   document (commands/printing/awb.ts), the documents of several stores or batches merged into one PDF. Each
 *   order is then marked printed for the document from the origin (its print log row follows). An order of
 *   another account, or none, answers 404; a user under a one-print limit who asks again for an order already
 *   printed gets 403 (655 AWB, 656 DO) and nothing is printed. AWB failures: 409 "Failed Print Airway Bill"
 *   (653; 657 without a tracking number; 678 the store is not connected) or "Failed to generate Waybill for the
 *   following tracking: …" (654) with the tracking numbers the marketplace refused.
 * GET /api/orders/print-log — the print log (ag-grid Infinite Row Model): sortModel printed_at | document | origin
 *   | order_number; filterModel { document?, origin? (sets), printed_at? (date) }; order_id, document, origin;
 *   search (order number,
 *   tracking number) → { rows: [{ id, order_id, order_number, tracking_number, document, origin, printed_by
 *   {id, name}, printed_at }], lastRow }.
 * Print settings: see api/orders/print-settings.ts.
 */

export const MAX_PRINT_ORDERS = 200;

const PrintBody = z.strictObject({
  document: z.enum(PRINT_DOCUMENTS, {
    error: invalid(PrintCode.documentInvalid, 'printing.document_invalid'),
  }),
  order_ids: z
    .array(
      z
        .string({ error: invalid(PrintCode.ordersInvalid, 'printing.orders_required') })
        .min(1, invalid(PrintCode.ordersInvalid, 'printing.orders_required'))
        .max(100, invalid(PrintCode.ordersInvalid, 'printing.orders_required')),
      { error: invalid(PrintCode.ordersInvalid, 'printing.orders_required') },
    )
    .min(1, invalid(PrintCode.ordersInvalid, 'printing.orders_required'))
    .max(
      MAX_PRINT_ORDERS,
      invalid(PrintCode.ordersInvalid, 'printing.too_many_orders', { max: MAX_PRINT_ORDERS }),
    ),
  origin: z.enum(PRINT_ORIGINS, { error: invalid(PrintCode.originInvalid, 'printing.origin_invalid') }),
});

const PDF_RESPONSE = {
  description: 'The documents as one PDF; `content-disposition: inline; filename="<document>-<order>.pdf"`',
  content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
};

type LoadedOrder = OrderView & { orderId: string };

/** The store names and warehouse details the drawn documents show. */
async function printableOrders(
  db: Kysely<Database>,
  tenantId: string,
  orders: readonly LoadedOrder[],
): Promise<PrintableOrder[]> {
  const storeIds = [...new Set(orders.map((order) => order.storeId).filter(isUuid))];
  const warehouseIds = [...new Set(orders.map((order) => order.state.warehouseId).filter(isUuid))];
  const stores =
    storeIds.length === 0
      ? []
      : await db
          .selectFrom('stores')
          .select(['id', 'name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', storeIds)
          .execute();
  const warehouses =
    warehouseIds.length === 0
      ? []
      : await db
          .selectFrom('warehouses')
          .select(['id', 'name', 'address', 'phone'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', warehouseIds)
          .execute();
  const storeName = new Map(stores.map((row) => [row.id, row.name]));
  const warehouse = new Map(warehouses.map((row) => [row.id, row]));
  return orders.map((order) => {
    const place = warehouse.get(order.state.warehouseId);
    return {
      orderNumber: order.orderNumber,
      trackingNumber: order.state.trackingNumber,
      platform: order.platform,
      storeName: storeName.get(order.storeId) ?? order.platform,
      orderedAt: order.orderedAt,
      paymentMethod: order.paymentMethod,
      cod: order.state.cod,
      currency: order.currency,
      totalAmount: order.totalAmount,
      shippingFee: order.shippingFee,
      shippingProvider: order.state.shippingProvider,
      buyerUsername: order.buyerUsername,
      buyerRemark: order.buyerRemark,
      address: order.address,
      lines: order.lines.map((line) => ({
        sku: line.sku,
        sellerSku: line.sellerSku,
        name: line.name,
        ...(line.variation ? { variation: line.variation } : {}),
        quantity: line.quantity,
        unitPrice: line.unitPrice,
      })),
      warehouse: place ? { name: place.name, address: place.address, phone: place.phone } : null,
    };
  });
}

const numbersOf = (orders: readonly { orderNumber: string }[]) =>
  orders
    .slice(0, 10)
    .map((order) => order.orderNumber)
    .join(', ') + (orders.length > 10 ? ` (+${orders.length - 10})` : '');

function limitRefusal(document: PrintDocument, orders: readonly { orderNumber: string }[]): ApiError {
  return document === 'AWB'
    ? new ApiError(403, PrintCode.awbOnePrintLimit, 'printing.awb_one_print_limit', {
        orders: numbersOf(orders),
      })
    : new ApiError(403, PrintCode.doOnePrintLimit, 'printing.do_one_print_limit', {
        orders: numbersOf(orders),
      });
}

function awbRefusal(error: AwbError): ApiError {
  const tracking = error.trackingNumbers.join(', ');
  switch (error.kind) {
    case 'failed':
      return new ApiError(409, PrintCode.waybillFailed, 'printing.waybill_failed', { tracking });
    case 'store_unavailable':
      return new ApiError(409, PrintCode.storeUnavailable, 'printing.awb_store_unavailable', { tracking });
    case 'unsupported':
      return new ApiError(409, PrintCode.storeUnavailable, 'printing.awb_unsupported', { tracking });
  }
}

// ---- the print log ----

const LOG_SORT = ['printed_at', 'document', 'origin', 'order_number'] as const;
const PrintLogQuery = gridQuery(LOG_SORT, {
  document: setFilter(PRINT_DOCUMENTS),
  origin: setFilter(PRINT_ORIGINS),
  printed_at: DateFilter,
}).extend({
  order_id: z.string().max(100).optional(),
  document: z.enum(PRINT_DOCUMENTS).optional(),
  origin: z.enum(PRINT_ORIGINS).optional(),
});

const PrintLogRow = z.object({
  id: z.string(),
  order_id: z.string(),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
  document: z.enum(PRINT_DOCUMENTS),
  origin: z.string(),
  printed_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  printed_at: z.string(),
});

const logSort: Record<(typeof LOG_SORT)[number], RawBuilder<unknown>> = {
  printed_at: sql`p.printed_at`,
  document: sql`p.document`,
  origin: sql`p.origin`,
  order_number: sql`lower(p.order_number)`,
};

export const printingRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, deps) => {
  const { db, store } = deps;
  const awb = deps.awb ?? storesAwbSource(db);
  await app.register(printSettingsRoutes, { db });

  app.post(
    '/api/orders/print',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'Print an order document (AWB, INV, PL, CL, DO) of one or many orders as one PDF, and log the print',
        body: PrintBody,
        response: { 200: PDF_RESPONSE, ...refusals, 409: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      assertMayPrint(session);
      const { document, origin } = request.body;
      const printer: Printer = {
        tenantId: session.tenantId,
        userId: session.userId,
        kind: session.kind,
        permissions: session.permissions,
      };
      const { orders, missing } = await loadOrders(store, session.tenantId, request.body.order_ids);
      if (missing.length > 0) throw notFound();
      const limited = limitedTo(printer, document);
      if (limited) {
        const printed = alreadyPrinted(orders, document);
        if (printed.length > 0) throw limitRefusal(document, printed);
      }

      let pdf: Buffer;
      if (document === 'AWB') {
        const untracked = orders.filter((order) => !order.state.trackingNumber);
        if (untracked.length > 0) {
          throw new ApiError(409, PrintCode.awbNoTracking, 'printing.awb_no_tracking', {
            orders: numbersOf(untracked),
          });
        }
        const wanted: AwbOrder[] = orders.map((order) => ({
          orderId: order.orderId,
          orderNumber: order.orderNumber,
          storeId: order.storeId,
          platform: order.platform,
          trackingNumber: order.state.trackingNumber!,
        }));
        try {
          pdf = await mergePdfs(await awb.documents(session.tenantId, wanted));
        } catch (error) {
          if (error instanceof AwbError) throw awbRefusal(error);
          if (error instanceof PdfMergeError) {
            request.log.warn({ err: error }, 'air waybills could not be merged');
            throw new ApiError(409, PrintCode.awbFailed, 'printing.awb_failed');
          }
          throw error;
        }
      } else {
        const { settings, logo } = await loadPrintSettings(db, session.tenantId);
        const drawn = document as DrawnDocument;
        pdf = await renderOrderDocuments(drawn, await printableOrders(db, session.tenantId, orders), {
          settings: settings.documents[drawn],
          company: settings.company,
          logo: logo?.data ?? null,
          language: request.language,
        });
      }

      const { refused } = await markPrinted(
        { store, db },
        printer,
        orders.map((order) => order.orderId),
        document,
        origin,
      );
      if (refused.length > 0) {
        throw limitRefusal(
          document,
          orders.filter((order) => refused.includes(order.orderId)),
        );
      }
      const name =
        orders.length === 1
          ? `${document}-${orders[0]!.orderNumber}.pdf`
          : `${document}-${orders.length}-orders.pdf`;
      return reply
        .code(200)
        .header('content-type', 'application/pdf')
        .header('cache-control', 'no-store')
        .header('content-disposition', attachmentName(name, true))
        .send(pdf);
    },
  );

  app.get(
    '/api/orders/print-log',
    {
      config: { access: { permission: PRINT_LOG_KEY } },
      schema: {
        tags,
        summary: 'The print log: every print of an order document, who printed it, when and from where',
        querystring: PrintLogQuery,
        response: {
          200: Ok(z.object({ rows: z.array(PrintLogRow), lastRow: z.number().int() })),
          ...refusals,
        },
      },
    },
    async (request) => {
      const session = seller(request);
      const query = request.query;
      const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`p.tenant_id = ${session.tenantId}`];
      const { filterModel } = query;
      if (filterModel.document) where.push(setWhere(sql<string>`p.document`, filterModel.document.values));
      if (filterModel.origin) where.push(setWhere(sql<string>`p.origin`, filterModel.origin.values));
      if (filterModel.printed_at) where.push(dateWhere(sql<Date>`p.printed_at`, filterModel.printed_at));
      if (query.order_id) where.push(sql<SqlBool>`p.order_id = ${query.order_id}`);
      if (query.document) where.push(sql<SqlBool>`p.document = ${query.document}`);
      if (query.origin) where.push(sql<SqlBool>`p.origin = ${query.origin}`);
      const search = query.search?.trim();
      if (search) {
        where.push(searchWhere([sql<string>`p.order_number`, sql<string>`p.tracking_number`], search));
      }
      const condition = allOf(where);
      const order = [
        ...sortTerms(query.sortModel, logSort),
        ...(query.sortModel.length === 0 ? [sql`p.printed_at DESC`] : []),
        sql`p.id DESC`,
      ];
      const { limit, offset } = pageWindow(query);
      const { rows, total } = await withTenant(db, session.tenantId, async (trx) => {
        const page = await sql<{
          id: string;
          order_id: string;
          order_number: string | null;
          tracking_number: string | null;
          document: PrintDocument;
          origin: string;
          printed_by: string | null;
          first_name: string | null;
          last_name: string | null;
          printed_at: Date;
        }>`
          SELECT p.id, p.order_id, p.order_number, p.tracking_number, p.document, p.origin, p.printed_by,
                 u.first_name, u.last_name, p.printed_at
          FROM print_log p
          LEFT JOIN users u ON u.id::text = p.printed_by AND u.tenant_id = p.tenant_id
          WHERE ${condition}
          ORDER BY ${sql.join(order)}
          LIMIT ${limit} OFFSET ${offset}`.execute(trx);
        const count = await sql<{
          n: string;
        }>`SELECT count(*) AS n FROM print_log p WHERE ${condition}`.execute(trx);
        return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
      });
      return ok(request, {
        rows: rows.map((row) => ({
          id: row.id,
          order_id: row.order_id,
          order_number: row.order_number,
          tracking_number: row.tracking_number,
          document: row.document,
          origin: row.origin,
          printed_by: row.printed_by
            ? { id: row.printed_by, name: `${row.first_name ?? ''} ${row.last_name ?? ''}`.trim() }
            : null,
          printed_at: row.printed_at.toISOString(),
        })),
        lastRow: total,
      });
    },
  );
};
