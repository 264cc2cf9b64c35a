import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { importMarketplaceOrder } from '@commands/orders/import';
import { ORDER_STOCK_REACTOR } from '@commands/orders/stock-reactor';
import { STANDARD_PACKAGES } from '@domain/access/packages';
import { initialState, type StockState, stockStreamId } from '@domain/inventory/stock';
import type { MarketplaceOrder, MarketplaceOrderLine } from '@domain/orders/marketplace-order';
import { ORDERS_PROJECTION } from '@projections/orders';
import type { TestApi } from '@tests/support/api';

/**
 * What the order tests share: a seller's catalogue (a warehouse, two master codes with stock and a combo of them),
 * marketplace orders as an integration hands them over, their import, and the stock figures of a master code.
 */

export interface Catalogue {
  warehouseId: string;
  /** Standard, 100 on hand, seller SKU BATIK-01. */
  batik: string;
  /** Standard, 100 on hand, seller SKU SONGKET-01. */
  songket: string;
  /** A combo: 1 batik and 2 songket; seller SKU GIFT-SET. */
  gift: string;
}

export async function seedCatalogue(api: TestApi, tenantId: string, onHand = 100): Promise<Catalogue> {
  const db = api.database.db;
  const warehouseId = randomUUID();
  await db
    .insertInto('warehouses')
    .values({
      id: warehouseId,
      tenant_id: tenantId,
      kind: 'warehouse',
      code: 'MAIN',
      name: 'Main',
      is_default: true,
    })
    .execute();
  const codes = { batik: randomUUID(), songket: randomUUID(), gift: randomUUID() };
  await db
    .insertInto('master_codes')
    .values([
      {
        id: codes.batik,
        tenant_id: tenantId,
        code: 'BATIK',
        name: 'Batik sarong',
        type: 'standard',
        seller_sku: 'BATIK-01',
      },
      {
        id: codes.songket,
        tenant_id: tenantId,
        code: 'SONGKET',
        name: 'Songket scarf',
        type: 'standard',
        seller_sku: 'SONGKET-01',
      },
      {
        id: codes.gift,
        tenant_id: tenantId,
        code: 'GIFT',
        name: 'Gift set',
        type: 'combo',
        seller_sku: 'GIFT-SET',
      },
    ])
    .execute();
  await db
    .insertInto('combo_items')
    .values([
      { tenant_id: tenantId, combo_id: codes.gift, component_id: codes.batik, quantity: 1, position: 0 },
      { tenant_id: tenantId, combo_id: codes.gift, component_id: codes.songket, quantity: 2, position: 1 },
    ])
    .execute();
  for (const masterCodeId of [codes.batik, codes.songket]) {
    await handleStockCommand(
      api.store,
      { type: 'ReceiveStock', masterCodeId, warehouseId, quantity: onHand },
      { tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
    );
  }
  return { warehouseId, ...codes };
}

export const line = (sellerSku: string, quantity: number, changes: Partial<MarketplaceOrderLine> = {}) => ({
  lineKey: `${sellerSku}-${quantity}-${randomUUID().slice(0, 6)}`,
  sku: `SP-${sellerSku}`,
  sellerSku,
  name: `Item ${sellerSku}`,
  quantity,
  unitPrice: '10.00',
  ...changes,
});

let sequence = 0;

/** A paid Shopee order with the given lines (a unique order number unless one is given). */
export function marketplaceOrder(
  lines: MarketplaceOrderLine[],
  changes: Partial<MarketplaceOrder> = {},
): MarketplaceOrder {
  sequence += 1;
  const now = new Date(Date.UTC(2026, 0, 1, 8, 0, sequence)).toISOString();
  return {
    platform: 'shopee',
    orderNumber: `2601${String(sequence).padStart(6, '0')}${randomUUID().slice(0, 4).toUpperCase()}`,
    status: 'ready_to_ship',
    orderedAt: now,
    paidAt: now,
    updatedAt: now,
    cod: false,
    paymentMethod: 'Online banking',
    currency: 'MYR',
    totalAmount: '50.00',
    buyerUsername: 'aisyah88',
    preOrder: false,
    address: {
      name: 'Nur Aisyah',
      phone: '+60123456789',
      fullAddress: '12 Jalan Ampang, 50450 Kuala Lumpur',
      city: 'Kuala Lumpur',
      state: 'Wilayah Persekutuan',
      postalCode: '50450',
      country: 'MY',
    },
    lines,
    ...changes,
  };
}

export async function importOrder(
  api: TestApi,
  tenantId: string,
  warehouseId: string,
  order: MarketplaceOrder,
  storeId = 'store-a',
): Promise<string> {
  const outcome = await importMarketplaceOrder(
    { store: api.store, db: api.database.db },
    {
      tenantId,
      storeId,
      warehouseId,
      order,
      commandId: `import:${storeId}:${order.orderNumber}:${order.updatedAt}`,
    },
  );
  return outcome.orderId;
}

/** The stock figures of a master code in a warehouse now (from its last event). */
export async function stockOf(api: TestApi, tenantId: string, masterCodeId: string, warehouseId: string) {
  const last = await api.store.readLastEvent(stockStreamId(tenantId, masterCodeId, warehouseId));
  const figures: StockState = last ? (last.data as StockState) : initialState;
  return {
    onHand: figures.onHand,
    reserved: figures.reserved,
    inProcess: figures.inProcess,
  };
}

/** Lets the order stock reactor and the board catch up with everything appended so far. */
export async function settle(api: TestApi): Promise<void> {
  // The reactor may append (an out-of-stock mark) that the board then reads: reactor first, board after.
  await api.reactors.catchUp(ORDER_STOCK_REACTOR);
  await api.engine.catchUp(ORDERS_PROJECTION);
}

/** A package like the trial but for its monthly order limit (commands/orders/monthly-limit.ts); its id. */
export async function packageOfMonthlyOrders(api: Pick<TestApi, 'database'>, monthlyOrders: number) {
  const trial = STANDARD_PACKAGES.find((pkg) => pkg.id === 'trial')!;
  const id = `orders-${monthlyOrders}-${randomUUID().slice(0, 8)}`;
  await api.database.db
    .insertInto('packages')
    .values({
      id,
      name: `${monthlyOrders} orders a month`,
      limits: JSON.stringify({ ...trial.limits, monthlyOrders }),
      flags: JSON.stringify(trial.flags),
    })
    .execute();
  return id;
}
