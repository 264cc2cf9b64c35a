import type { PrintBody } from '@api/contracts/printing';
import { withNameParts } from '@domain/orders/marketplace-order';
import type { PrintDocument } from '@domain/orders/order';
import { printErrors } from '@domain/printing/errors';
import type { DrawnDocument } from '@domain/printing/settings';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import { lineRackLocations } from '@projections/inventory/racks';
import type { Kysely } from 'kysely';
import { AwbError, type AwbOrder, type AwbSource } from './awb';
import { type PrintableOrder, renderOrderDocuments } from './order-documents-pdf';
import type { OrderView } from './order-view';
import { mergePdfs, PdfMergeError } from './pdf-merge';
import { alreadyPrinted, limitedTo, loadOrders, markPrinted, type Printer } from './print';
import { loadPrintSettings } from './settings';

/**
 * Printing an order document of one order or many as one PDF (spec §2, §9): the orders are loaded from their
 * streams, a user under a one-print limit is refused orders already printed, the document is drawn by Kedai (INV,
 * PL, CL, DO with the account's print settings) or fetched from the marketplace (AWB, merged into one PDF), and each
 * order is then marked printed from the origin (its print log row follows).
 */

const refuse = refuser(printErrors);

export interface PrintDeps {
  db: Kysely<Database>;
  store: EventStore;
  awb: AwbSource;
  /** Where a failure the seller cannot act on is told (the merge of the marketplace's PDFs). */
  warn?: (error: unknown, message: string) => void;
}

/** What was asked, and the caller's language (the drawn documents' labels, under `printing.pdf`, and dates). */
export type PrintInput = PrintBody & { language: Language };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isUuid = (value: string) => UUID.test(value);

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
  const racks = await lineRackLocations(
    db,
    tenantId,
    orders.flatMap((order) =>
      order.lines.map((line) => ({
        key: `${order.orderId}/${line.lineId}`,
        warehouseId: order.state.warehouseId,
        masterCodeId: line.masterCodeId,
      })),
    ),
  );
  return orders.map((order) => {
    const place = warehouse.get(order.state.warehouseId);
    const { firstName, lastName } = withNameParts(order.address);
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
      firstName: firstName ?? '',
      lastName: lastName ?? '',
      lines: order.lines.map((line) => ({
        sku: line.sku,
        sellerSku: line.sellerSku,
        name: line.name,
        ...(line.variation ? { variation: line.variation } : {}),
        quantity: line.quantity,
        unitPrice: line.unitPrice,
        gift: line.gift ?? false,
        ...(line.binNumber ? { binNumber: line.binNumber } : {}),
        serialNumbers: line.serialNumbers ?? [],
        rackLocations: racks.get(`${order.orderId}/${line.lineId}`) ?? [],
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

const limitRefusal = (document: PrintDocument, orders: readonly { orderNumber: string }[]) =>
  refuse(document === 'AWB' ? 'AWB_ONE_PRINT_LIMIT' : 'DO_ONE_PRINT_LIMIT', { orders: numbersOf(orders) });

function awbRefusal(error: AwbError) {
  const tracking = error.trackingNumbers.join(', ');
  switch (error.kind) {
    case 'failed':
      return refuse('WAYBILL_FAILED', { tracking });
    case 'store_unavailable':
      return refuse('AWB_STORE_UNAVAILABLE', { tracking });
    case 'unsupported':
      return refuse('AWB_UNSUPPORTED', { tracking });
    default: {
      const unknown: never = error.kind;
      throw new Error(`unknown air waybill failure ${unknown}`);
    }
  }
}

/** The PDF and the file name it is offered under. */
export async function printOrderDocuments(
  deps: PrintDeps,
  printer: Printer,
  input: PrintInput,
): Promise<{ pdf: Buffer; name: string }> {
  const { db, store } = deps;
  const { document, origin } = input;
  const { orders, missing } = await loadOrders(store, printer.tenantId, input.order_ids);
  if (missing.length > 0) throw refuse('ORDER_NOT_FOUND');
  if (limitedTo(printer, document)) {
    const printed = alreadyPrinted(orders, document);
    if (printed.length > 0) throw limitRefusal(document, printed);
  }

  let pdf: Buffer;
  if (document === 'AWB') {
    const untracked = orders.filter((order) => !order.state.trackingNumber);
    if (untracked.length > 0) throw refuse('AWB_NO_TRACKING', { orders: numbersOf(untracked) });
    const wanted: AwbOrder[] = orders.map((order) => ({
      orderId: order.orderId,
      orderNumber: order.orderNumber,
      storeId: order.storeId,
      platform: order.platform,
      trackingNumber: order.state.trackingNumber!,
    }));
    try {
      pdf = await mergePdfs(await deps.awb.documents(printer.tenantId, wanted));
    } catch (error) {
      if (error instanceof AwbError) throw awbRefusal(error);
      if (error instanceof PdfMergeError) {
        deps.warn?.(error, 'air waybills could not be merged');
        throw refuse('AWB_FAILED');
      }
      throw error;
    }
  } else {
    const { settings, logo } = await loadPrintSettings(db, printer.tenantId);
    const drawn = document as DrawnDocument;
    pdf = await renderOrderDocuments(drawn, await printableOrders(db, printer.tenantId, orders), {
      settings: settings.documents[drawn],
      company: settings.company,
      logo: logo?.data ?? null,
      language: input.language,
      label: (key, params) => translate(input.language, `printing.pdf.${key}`, params),
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
  return { pdf, name };
}
