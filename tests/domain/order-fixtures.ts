import type { OrderAddress } from '@domain/orders/marketplace-order';
import type { ImportOrderData, OrderLine } from '@domain/orders/order';

/** The order the domain specs start from: a Shopee order of two batik sarongs, paid, to Kuala Lumpur. */

export const address: OrderAddress = {
  name: 'Nur Aisyah',
  phone: '+60123456789',
  fullAddress: '12 Jalan Ampang, 50450 Kuala Lumpur',
  city: 'Kuala Lumpur',
  state: 'Wilayah Persekutuan',
  postalCode: '50450',
  country: 'MY',
};

export const batik: OrderLine = {
  lineId: 'l1',
  sku: 'SP-1',
  sellerSku: 'BATIK-01',
  name: 'Batik sarong',
  quantity: 2,
  unitPrice: '59.90',
  masterCodeId: 'mc-batik',
  combo: false,
};

export const importData = (changes: Partial<ImportOrderData> = {}): ImportOrderData => ({
  orderId: 'o1',
  storeId: 'store-1',
  platform: 'shopee',
  orderNumber: '240101ABC',
  marketplaceStatus: 'ready_to_ship',
  warehouseId: 'wh',
  orderedAt: '2026-01-01T08:00:00.000Z',
  paidAt: '2026-01-01T08:05:00.000Z',
  marketplaceUpdatedAt: '2026-01-01T08:05:00.000Z',
  cod: false,
  paymentMethod: 'Online banking',
  currency: 'MYR',
  totalAmount: '119.80',
  preOrder: false,
  address,
  lines: [batik],
  ...changes,
});
