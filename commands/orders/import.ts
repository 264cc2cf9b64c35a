import { type MarketplaceOrder, withNameParts } from '@domain/orders/marketplace-order';
import { initialStatus, type OrderLine } from '@domain/orders/order';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { mappingSkuOf } from './map-line';
import { admitOrder } from './monthly-limit';
import { findOrder, handleOrderCommand, orderIdFor } from './order';

/**
 * The order import: a marketplace order (already translated by its integration) becomes a Kedai order, once. The
 * order id derives from store + order number, so importing the same order again — a retried activity, an
 * overlapping window — finds it; a changed order (paid, cancelled, shipped, a tracking number) records what
 * changed. Each line's seller SKU maps onto the tenant's master code of that seller SKU (or, failing that, of that
 * code); a line that maps to nothing is "item not found" until the seller maps it.
 */

export interface ImportDeps {
  store: EventStore;
  db: Kysely<Database>;
}

export interface ImportInput {
  tenantId: string;
  storeId: string;
  /** Where the store's orders are fulfilled from. */
  warehouseId: string;
  order: MarketplaceOrder;
  /** Idempotency key of this import (e.g. workflow id + order number + update time). */
  commandId: string;
  userId?: string;
}

export interface ImportOutcome {
  orderId: string;
  outcome: 'created' | 'updated' | 'unchanged';
}

/**
 * Master codes of the tenant by the seller's own mapping of the store's SKU (commands/orders/map-line.ts), then by
 * seller SKU, then by code; active or not (a sale still moves inactive stock).
 */
export async function mapSellerSkus(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  skus: readonly string[],
): Promise<Map<string, { id: string; combo: boolean }>> {
  const wanted = [...new Set(skus.map((sku) => sku.trim()).filter(Boolean))];
  const found = new Map<string, { id: string; combo: boolean }>();
  if (wanted.length === 0) return found;
  const rows = await db
    .selectFrom('master_codes')
    .select(['id', 'code', 'seller_sku', 'type'])
    .where('tenant_id', '=', tenantId)
    .where((eb) => eb.or([eb('seller_sku', 'in', wanted), eb('code', 'in', wanted)]))
    .execute();
  // A seller SKU match wins over a code match.
  for (const row of rows) {
    if (wanted.includes(row.code) && !found.has(row.code)) {
      found.set(row.code, { id: row.id, combo: row.type === 'combo' });
    }
  }
  for (const row of rows) {
    if (row.seller_sku && wanted.includes(row.seller_sku)) {
      found.set(row.seller_sku, { id: row.id, combo: row.type === 'combo' });
    }
  }
  const chosen = await db
    .selectFrom('order_sku_mappings as m')
    .innerJoin('master_codes as c', (join) =>
      join.onRef('c.id', '=', 'm.master_code_id').onRef('c.tenant_id', '=', 'm.tenant_id'),
    )
    .select(['m.sku', 'c.id', 'c.type'])
    .where('m.tenant_id', '=', tenantId)
    .where('m.store_id', '=', storeId)
    .where('m.sku', 'in', wanted)
    .execute();
  for (const row of chosen) found.set(row.sku, { id: row.id, combo: row.type === 'combo' });
  return found;
}

export async function importMarketplaceOrder(deps: ImportDeps, input: ImportInput): Promise<ImportOutcome> {
  const { order } = input;
  const orderId = orderIdFor(input.storeId, order.orderNumber);
  const context = {
    tenantId: input.tenantId,
    userId: input.userId,
    commandId: input.commandId,
    occurredAt: new Date().toISOString(),
  };
  const current = await findOrder(deps.store, input.tenantId, orderId);
  if (current.status !== 'none') {
    const result = await handleOrderCommand(
      deps.store,
      orderId,
      {
        type: 'SyncOrder',
        marketplaceStatus: order.status,
        marketplaceUpdatedAt: order.updatedAt,
        paidAt: order.paidAt,
        ...(order.trackingNumber ? { trackingNumber: order.trackingNumber } : {}),
        ...(order.shippingProvider ? { shippingProvider: order.shippingProvider } : {}),
      },
      context,
    );
    return { orderId, outcome: result.events.length > 0 && !result.replayed ? 'updated' : 'unchanged' };
  }
  const mapped = await mapSellerSkus(deps.db, input.tenantId, input.storeId, order.lines.map(mappingSkuOf));
  const lines: OrderLine[] = order.lines.map((line) => {
    const master = mapped.get(mappingSkuOf(line));
    return {
      lineId: line.lineKey,
      sku: line.sku,
      sellerSku: line.sellerSku,
      name: line.name,
      ...(line.variation ? { variation: line.variation } : {}),
      quantity: line.quantity,
      // A gift is given free whatever price the marketplace listed it at.
      unitPrice: line.gift ? '0.00' : line.unitPrice,
      masterCodeId: master?.id ?? null,
      combo: master?.combo ?? false,
      ...(line.gift ? { gift: true } : {}),
    };
  });
  // An order still to be fulfilled asks the monthly order limit for a place; over it, it is imported held.
  const holdFor =
    initialStatus({ marketplaceStatus: order.status }) === 'unpaid'
      ? await admitOrder(deps.db, input.tenantId, orderId, new Date(context.occurredAt))
      : null;
  const result = await handleOrderCommand(
    deps.store,
    orderId,
    {
      type: 'ImportOrder',
      ...(holdFor ? { holdFor } : {}),
      order: {
        orderId,
        storeId: input.storeId,
        platform: order.platform,
        orderNumber: order.orderNumber,
        marketplaceStatus: order.status,
        warehouseId: input.warehouseId,
        orderedAt: order.orderedAt,
        paidAt: order.paidAt,
        marketplaceUpdatedAt: order.updatedAt,
        cod: order.cod,
        paymentMethod: order.paymentMethod,
        currency: order.currency,
        totalAmount: order.totalAmount,
        ...(order.shippingFee ? { shippingFee: order.shippingFee } : {}),
        ...(order.buyerUsername ? { buyerUsername: order.buyerUsername } : {}),
        ...(order.buyerRemark ? { buyerRemark: order.buyerRemark } : {}),
        ...(order.sellerRemark ? { sellerRemark: order.sellerRemark } : {}),
        ...(order.fulfilmentType ? { fulfilmentType: order.fulfilmentType } : {}),
        ...(order.packageNumbers?.length ? { packageNumbers: order.packageNumbers } : {}),
        ...(order.shippingProvider ? { shippingProvider: order.shippingProvider } : {}),
        ...(order.trackingNumber ? { trackingNumber: order.trackingNumber } : {}),
        preOrder: order.preOrder,
        address: withNameParts(order.address),
        lines,
      },
    },
    context,
  ).catch(async (error: unknown) => {
    // Two imports of a new order at once: the second finds the first's and updates from there.
    if ((error as { code?: string }).code === 'ORDER_EXISTS') return null;
    throw error;
  });
  if (result === null) return importMarketplaceOrder(deps, input);
  return { orderId, outcome: result.replayed ? 'unchanged' : 'created' };
}
