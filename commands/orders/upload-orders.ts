import type { OrderUploadResult } from '@api/contracts/order-upload';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import type { RowProblem, SheetUpload } from '@commands/purchases/upload-purchases';
import { logActivity } from '@commands/support/activity';
import type { Actor } from '@commands/support/actor';
import {
  openUpload,
  recordBadRows,
  recordUnreadableFile,
  type SentFile,
  UploadProgress,
} from '@commands/support/sheet-uploads';
import { country } from '@domain/lookups';
import { type MarketplaceOrder, PLATFORMS, type Platform } from '@domain/orders/marketplace-order';
import { ORDER_FILE_COLUMNS } from '@domain/orders/order-file';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { interruptedKey } from '@projections/sheet-uploads.queries';
import type { Kysely } from 'kysely';
import { importMarketplaceOrder, mapSellerSkus } from './import';
import { releaseHeldOrders } from './monthly-limit';
import { findOrder, orderIdFor } from './order';
import {
  MAX_ORDER_ROWS,
  maxLengthOf,
  type OrderFileOrder,
  type OrderFileProblem,
  parseOrderFile,
} from './order-file';

/**
 * The `orders-upload` bulk upload of manual orders (issue 14; the file: commands/orders/order-file.ts). The whole
 * file is checked before anything is recorded — its format, then every store and SKU against the account's — and
 * every bad row is listed with every reason in one answer; any bad row and nothing is created. A good file records
 * each order as the store's order (the way an import does, so its lines map onto master codes and a paid or cash on
 * delivery order reserves stock at once). An order number the store already has is left as it is and counted as
 * existing, so uploading the same file again creates nothing twice.
 *
 * Every file sent is kept in the upload history (commands/support/sheet-uploads.ts) as purchases and stock files are:
 * a refused one failed with its bad rows; a good one pending, in progress while its orders are recorded, then
 * complete (or failed, saying to upload the file again, should recording an order fail).
 */

export interface OrderUploadDeps {
  db: Kysely<Database>;
  store: EventStore;
}

export type OrderUpload = SheetUpload<OrderUploadResult>;

const problemKeys: Record<OrderFileProblem, string> = {
  column_count: 'orders.upload.row.column_count',
  required: 'orders.upload.row.required',
  too_long: 'orders.upload.row.too_long',
  quantity_invalid: 'orders.upload.row.quantity_invalid',
  price_invalid: 'orders.upload.row.price_invalid',
  paid_invalid: 'orders.upload.row.paid_invalid',
  email_invalid: 'orders.upload.row.email_invalid',
  differs: 'orders.upload.row.differs',
  text_invalid: 'orders.upload.row.text_invalid',
};

interface UploadStore {
  id: string;
  platform: Platform;
  region: string;
  warehouseId: string | null;
}

/** The account's stores by name (lower case), the oldest of a name first; a disconnected one takes no orders. */
async function storesByName(db: Kysely<Database>, tenantId: string, names: readonly string[]) {
  const wanted = [...new Set(names.map((name) => name.toLowerCase()))];
  const rows = await db
    .selectFrom('stores')
    .select(['id', 'name', 'platform', 'region', 'warehouse_id'])
    .where('tenant_id', '=', tenantId)
    .where('status', '!=', 'disconnected')
    .where((eb) => eb(eb.fn('lower', ['name']), 'in', wanted))
    .orderBy('created_at')
    .execute();
  const found = new Map<string, UploadStore>();
  for (const row of rows) {
    const key = row.name.toLowerCase();
    if (found.has(key) || !(PLATFORMS as readonly string[]).includes(row.platform)) continue;
    found.set(key, {
      id: row.id,
      platform: row.platform as Platform,
      region: row.region,
      warehouseId: row.warehouse_id,
    });
  }
  return found;
}

const cents = (money: string) => Math.round(Number(money) * 100);

/** The file's order as an integration hands an order over. */
function asMarketplaceOrder(order: OrderFileOrder, store: UploadStore, at: string): MarketplaceOrder {
  const total = order.lines.reduce(
    (sum, line) => sum + cents(line.unitPrice) * line.quantity,
    cents(order.shippingFee),
  );
  return {
    platform: store.platform,
    orderNumber: order.orderNumber,
    status: order.paid || order.cod ? 'ready_to_ship' : 'unpaid',
    orderedAt: at,
    paidAt: order.paid ? at : null,
    updatedAt: at,
    cod: order.cod,
    paymentMethod: order.paymentMethod,
    currency: country(store.region.toUpperCase())?.currency ?? '',
    totalAmount: (total / 100).toFixed(2),
    shippingFee: order.shippingFee,
    buyerUsername: order.buyerName,
    ...(order.buyerRemark ? { buyerRemark: order.buyerRemark } : {}),
    ...(order.shippingProvider ? { shippingProvider: order.shippingProvider } : {}),
    ...(order.trackingNumber ? { trackingNumber: order.trackingNumber } : {}),
    preOrder: false,
    address: {
      name: order.buyerName,
      phone: order.phone,
      fullAddress: [order.address, order.postcode, order.city, order.state].join(', '),
      city: order.city,
      state: order.state,
      postalCode: order.postcode,
      country: store.region.slice(0, 2),
      ...(order.email ? { email: order.email } : {}),
    },
    lines: order.lines.map((line) => ({
      lineKey: `row-${line.row}`,
      sku: line.sku,
      sellerSku: line.sku,
      name: line.sku,
      quantity: line.quantity,
      unitPrice: line.unitPrice,
    })),
  };
}

export async function uploadOrders(
  deps: OrderUploadDeps,
  actor: Required<Actor>,
  input: { bytes: Buffer; filename: string; occurredAt: string },
): Promise<OrderUpload> {
  const { db } = deps;
  const { tenantId } = actor;
  const sent: SentFile = {
    kind: 'order',
    tenantId,
    userId: actor.userId,
    filename: input.filename,
    bytes: input.bytes,
  };
  const parsed = await parseOrderFile(input.bytes, input.filename);
  if (!parsed.ok) {
    await recordUnreadableFile(db, sent, { problem: parsed.file, area: 'orders', maxRows: MAX_ORDER_ROWS });
    return { ok: false, file: parsed.file, maxRows: MAX_ORDER_ROWS };
  }
  const problems: RowProblem[] = parsed.rows.map((problem) => ({
    row: problem.row,
    column: problem.column ?? null,
    key: problemKeys[problem.problem],
    params: {
      row: problem.row,
      columns: ORDER_FILE_COLUMNS.join(', '),
      column: problem.column ?? '',
      max: maxLengthOf(problem.column),
    },
  }));

  const stores = await storesByName(
    db,
    tenantId,
    parsed.orders.map((order) => order.store),
  );
  // A line's SKU is found as the import will find it: through the store's own saved mappings, then the codes.
  const skusByStore = new Map<string, Set<string>>();
  for (const order of parsed.orders) {
    const storeId = stores.get(order.store.toLowerCase())?.id ?? '';
    const skus = skusByStore.get(storeId) ?? new Set<string>();
    for (const line of order.lines) skus.add(line.sku);
    skusByStore.set(storeId, skus);
  }
  const found = new Map<string, Set<string>>();
  for (const [storeId, skus] of skusByStore) {
    found.set(storeId, new Set((await mapSellerSkus(db, tenantId, storeId, [...skus])).keys()));
  }
  for (const order of parsed.orders) {
    const skus = found.get(stores.get(order.store.toLowerCase())?.id ?? '')!;
    if (!stores.has(order.store.toLowerCase()))
      problems.push({
        row: order.row,
        column: 'store',
        key: 'orders.upload.row.store_not_found',
        params: { store: order.store },
      });
    for (const line of order.lines) {
      if (!skus.has(line.sku))
        problems.push({
          row: line.row,
          column: 'sku',
          key: 'orders.upload.row.sku_not_found',
          params: { sku: line.sku },
        });
    }
  }
  const lines = parsed.orders.flatMap((order) => order.lines.map((line) => line.row));
  if (problems.length > 0) {
    await recordBadRows(db, sent, { rows: lines, problems, key: 'orders.upload.rows_invalid' });
    return { ok: false, rows: problems };
  }

  const progress = new UploadProgress(db, await openUpload(db, sent, lines.length));
  await progress.start();
  const result: OrderUploadResult = { upload_id: progress.id, created: 0, existing: 0, orders: [] };
  const warehouses = new Map<string, string>();
  /** One order of the file recorded as the store's order; false when the store has it already. */
  const record = async (order: OrderFileOrder, store: UploadStore, orderId: string) => {
    // The store's own order of that number (imported, or uploaded before) is never changed by a file.
    if ((await findOrder(deps.store, tenantId, orderId)).status !== 'none') return false;
    const warehouseId = store.warehouseId ?? warehouses.get('default') ?? (await defaultWarehouse(db, actor));
    warehouses.set('default', warehouseId);
    const { outcome } = await importMarketplaceOrder(deps, {
      tenantId,
      userId: actor.userId,
      storeId: store.id,
      warehouseId,
      order: asMarketplaceOrder(order, store, input.occurredAt),
      commandId: `order-upload:${parsed.hash}:${order.orderNumber}`,
    });
    return outcome === 'created';
  };
  for (const order of parsed.orders) {
    const store = stores.get(order.store.toLowerCase())!;
    const orderId = orderIdFor(store.id, order.orderNumber);
    try {
      const created = await record(order, store, orderId);
      // The history counts rows: an order is as many rows as it has lines.
      if (created) {
        result.created++;
        progress.applied += order.lines.length;
      } else {
        result.existing++;
        progress.replayed += order.lines.length;
      }
      result.orders.push({ id: orderId, order_number: order.orderNumber, created });
      await progress.write();
    } catch (error) {
      await progress.fail(error, { row: order.row, rows: order.lines.length }, interruptedKey.order);
      throw error;
    }
  }
  await progress.write({ status: 'complete' });
  // Orders held over the monthly limit go in as soon as a new month (or package) allows, ahead of the schedule.
  await releaseHeldOrders(deps, tenantId);
  await logActivity(db, {
    tenantId,
    userId: actor.userId,
    action: 'orders.uploaded',
    subjectType: 'order_upload',
    subjectId: parsed.hash,
    detail: { filename: input.filename, created: result.created, existing: result.existing },
  });
  return { ok: true, result };
}
