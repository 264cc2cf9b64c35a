import { randomBytes } from 'node:crypto';
import { MarketplaceOrder } from '@domain/orders/marketplace-order';
import { ChannelError } from '@integrations/channel';
import {
  ORDER_STATUSES,
  ShopeeAuthError,
  type ShopeeOrder,
  ShopeeRateLimitError,
  ShopeeServerError,
  ShopeeSignatureError,
  ShopeeTimeoutError,
} from '@integrations/shopee';
import {
  CONNECT_STATE_TTL_MS,
  checkConnectState,
  classifyStoreError,
  OrderTranslationError,
  SHOPEE_STATUS_MAP,
  shopeeToMarketplaceOrder,
  signConnectState,
} from '@integrations/stores';
import { describe, expect, it } from 'vitest';

/** A Shopee order as get_order_detail answers it with every optional field (numbers from the sandbox's kind). */
function shopeeOrder(overrides: Partial<ShopeeOrder> = {}): ShopeeOrder {
  return {
    order_sn: '2411215JYEEFW0',
    region: 'MY',
    currency: 'MYR',
    cod: false,
    order_status: 'READY_TO_SHIP',
    create_time: 1_732_154_400,
    update_time: 1_732_155_000,
    days_to_ship: 2,
    ship_by_date: 1_732_327_200,
    message_to_seller: '  Tolong bungkus elok-elok ya  ',
    buyer_user_id: 123_456_789,
    buyer_username: 'aminah_92',
    estimated_shipping_fee: 5.9,
    actual_shipping_fee: 5.9,
    recipient_address: {
      name: 'Siti Aminah',
      phone: '60123456789',
      town: '',
      district: 'Petaling',
      city: 'Petaling Jaya',
      state: 'Selangor',
      region: 'MY',
      zipcode: '46050',
      full_address: '12, Jalan SS 2/24, 46050 Petaling Jaya, Selangor',
    },
    item_list: [
      {
        item_id: 1_000_000_001,
        item_name: 'Basic Cotton T-Shirt',
        item_sku: 'TSHIRT',
        model_id: 10_000_000_001,
        model_name: 'Black, M',
        model_sku: 'TSHIRT-BLK-M',
        model_quantity_purchased: 3,
        model_original_price: 29.9,
        model_discounted_price: 25.4,
      },
      {
        item_id: 1_000_000_002,
        item_name: 'Sambal Nyet Berapi 250g',
        item_sku: 'SAMBAL-250G',
        model_id: 0,
        model_name: '',
        model_sku: '',
        model_quantity_purchased: 1,
        model_original_price: 16.9,
        model_discounted_price: 16.9,
      },
    ],
    pay_time: 1_732_154_700,
    shipping_carrier: 'J&T Express',
    payment_method: 'Online Banking',
    total_amount: 99.0,
    ...overrides,
  };
}

describe('a Shopee order as a MarketplaceOrder', () => {
  it('carries the order, its buyer, address and lines in Kedai words', () => {
    const order = shopeeToMarketplaceOrder(shopeeOrder(), { trackingNumber: '630012345678' });
    expect(MarketplaceOrder.parse(order)).toEqual(order);
    expect(order).toEqual({
      platform: 'shopee',
      orderNumber: '2411215JYEEFW0',
      status: 'ready_to_ship',
      orderedAt: '2024-11-21T02:00:00.000Z',
      paidAt: '2024-11-21T02:05:00.000Z',
      updatedAt: '2024-11-21T02:10:00.000Z',
      cod: false,
      paymentMethod: 'Online Banking',
      currency: 'MYR',
      totalAmount: '99.00',
      shippingFee: '5.90',
      buyerUsername: 'aminah_92',
      buyerRemark: 'Tolong bungkus elok-elok ya',
      shippingProvider: 'J&T Express',
      trackingNumber: '630012345678',
      preOrder: false,
      address: {
        name: 'Siti Aminah',
        phone: '60123456789',
        fullAddress: '12, Jalan SS 2/24, 46050 Petaling Jaya, Selangor',
        city: 'Petaling Jaya',
        state: 'Selangor',
        postalCode: '46050',
        country: 'MY',
        district: 'Petaling',
      },
      lines: [
        {
          lineKey: '1000000001:10000000001',
          sku: '1000000001:10000000001',
          sellerSku: 'TSHIRT-BLK-M',
          name: 'Basic Cotton T-Shirt',
          variation: 'Black, M',
          quantity: 3,
          unitPrice: '25.40',
        },
        {
          lineKey: '1000000002',
          sku: '1000000002',
          sellerSku: 'SAMBAL-250G',
          name: 'Sambal Nyet Berapi 250g',
          quantity: 1,
          unitPrice: '16.90',
        },
      ],
    });
  });

  it("marks the gift of a gift-with-purchase promotion, and keeps the buyer's one name", () => {
    const order = shopeeOrder();
    const main = order.item_list![0]!;
    const withGift = shopeeToMarketplaceOrder({
      ...order,
      item_list: [
        { ...main, promotion_type: 'add_on_free_gift_main' },
        {
          ...main,
          item_id: 1_000_000_009,
          item_name: 'Tote bag',
          model_id: 0,
          model_sku: 'TOTE',
          model_quantity_purchased: 1,
          model_discounted_price: 0,
          promotion_type: 'add_on_free_gift_sub',
        },
      ],
    });
    expect(withGift.lines.map((line) => [line.sellerSku, line.gift ?? false])).toEqual([
      ['TSHIRT-BLK-M', false],
      ['TOTE', true],
    ]);
    expect(withGift.address.name).toBe('Siti Aminah');
    expect(MarketplaceOrder.parse(withGift)).toEqual(withGift);
  });

  it("carries the seller's note, who fulfils it and its packages", () => {
    const order = shopeeToMarketplaceOrder(
      shopeeOrder({
        note: ' Pack with bubble wrap ',
        fulfillment_flag: 'fulfilled_by_local_seller',
        package_list: [
          {
            package_number: 'OFG1001',
            logistics_status: 'LOGISTICS_READY',
            shipping_carrier: 'J&T',
            item_list: [],
          },
          {
            package_number: 'OFG1002',
            logistics_status: 'LOGISTICS_READY',
            shipping_carrier: 'J&T',
            item_list: [],
          },
        ],
      }),
    );
    expect(order).toMatchObject({
      sellerRemark: 'Pack with bubble wrap',
      fulfilmentType: 'fulfilled_by_local_seller',
      packageNumbers: ['OFG1001', 'OFG1002'],
    });
    expect(MarketplaceOrder.parse(order)).toEqual(order);
  });

  it('maps every Shopee status', () => {
    expect(Object.keys(SHOPEE_STATUS_MAP).sort()).toEqual([...ORDER_STATUSES].sort());
    const expected = {
      UNPAID: 'unpaid',
      READY_TO_SHIP: 'ready_to_ship',
      PROCESSED: 'processed',
      SHIPPED: 'shipped',
      TO_CONFIRM_RECEIVE: 'shipped',
      COMPLETED: 'completed',
      CANCELLED: 'cancelled',
      IN_CANCEL: 'in_cancel',
      TO_RETURN: 'to_return',
    } as const;
    for (const [shopee, kedai] of Object.entries(expected)) {
      expect(
        shopeeToMarketplaceOrder(shopeeOrder({ order_status: shopee as ShopeeOrder['order_status'] })).status,
      ).toBe(kedai);
    }
  });

  it('reads an unpaid cash-on-delivery order, a pre-order and a missing total', () => {
    const cod = shopeeToMarketplaceOrder(
      shopeeOrder({
        cod: true,
        pay_time: 0,
        payment_method: undefined,
        total_amount: undefined,
        days_to_ship: 10,
      }),
    );
    expect(cod.paidAt).toBeNull();
    expect(cod.paymentMethod).toBe('Cash on Delivery');
    expect(cod.preOrder).toBe(true);
    // 3 × 25.40 + 16.90 + 5.90 shipping, to the sen.
    expect(cod.totalAmount).toBe('99.00');
    expect(cod).not.toHaveProperty('trackingNumber');
  });

  it('keeps a key of its own for the same item and model twice, and leaves out lines of no quantity', () => {
    const [line] = shopeeOrder().item_list!;
    const order = shopeeToMarketplaceOrder(
      shopeeOrder({
        item_list: [
          line!,
          { ...line!, model_discounted_price: 0 },
          { ...line!, model_quantity_purchased: 0 },
        ],
      }),
    );
    expect(order.lines.map((l) => [l.lineKey, l.unitPrice])).toEqual([
      ['1000000001:10000000001', '25.40'],
      ['1000000001:10000000001#2', '29.90'],
    ]);
  });

  it('refuses an order without items, and clips texts to their bounds', () => {
    expect(() => shopeeToMarketplaceOrder(shopeeOrder({ item_list: [] }))).toThrow(OrderTranslationError);
    const long = shopeeToMarketplaceOrder(
      shopeeOrder({ message_to_seller: 'x'.repeat(5000), buyer_username: 'y'.repeat(500) }),
    );
    expect(long.buyerRemark).toHaveLength(2000);
    expect(long.buyerUsername).toHaveLength(200);
  });
});

describe('the connect state', () => {
  const secret = randomBytes(32);
  const asked = { tenantId: 'tenant-a', userId: 'user-1', platform: 'shopee' };

  it('binds the callback to the account that asked, until it expires', () => {
    const now = Date.UTC(2026, 0, 1);
    const { state, expiresAt } = signConnectState(secret, { ...asked, now });
    expect(expiresAt.getTime()).toBe(now + CONNECT_STATE_TTL_MS);
    expect(checkConnectState(secret, state, { tenantId: 'tenant-a', platform: 'shopee', now })).toEqual({
      ok: true,
      tenantId: 'tenant-a',
      userId: 'user-1',
      platform: 'shopee',
    });
    expect(checkConnectState(secret, state, { tenantId: 'tenant-b', platform: 'shopee', now })).toEqual({
      ok: false,
      reason: 'other_account',
    });
    expect(
      checkConnectState(secret, state, {
        tenantId: 'tenant-a',
        platform: 'shopee',
        now: now + CONNECT_STATE_TTL_MS,
      }),
    ).toEqual({ ok: false, reason: 'expired' });
    expect(checkConnectState(secret, state, { tenantId: 'tenant-a', platform: 'lazada', now })).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuses a state signed with another key, edited, or not a state at all', () => {
    const { state } = signConnectState(secret, asked);
    const expected = { tenantId: 'tenant-a', platform: 'shopee' };
    const [body, mac] = state.split('.') as [string, string];
    const edited = Buffer.from(
      Buffer.from(body, 'base64url').toString('utf8').replace('tenant-a', 'tenant-b'),
    ).toString('base64url');
    for (const bad of [
      signConnectState(randomBytes(32), asked).state,
      `${edited}.${mac}`,
      `${body}.${mac.startsWith('A') ? 'B' : 'A'}${mac.slice(1)}`,
      // The same signature bytes, encoded otherwise (the last character's unused bits set).
      `${body}.${mac.slice(0, -1)}${String.fromCharCode(mac.charCodeAt(42) ^ 1)}`,
      '',
      undefined,
      'state',
      `${body}.`,
    ]) {
      expect(checkConnectState(secret, bad, expected)).toEqual({ ok: false, reason: 'invalid' });
    }
  });
});

describe("what a failure means for a store's import", () => {
  const details = { code: 'x', message: 'm', path: '/api/v2/order/get_order_list' };
  it('retries what may pass by itself, and not a refused authorisation', () => {
    expect(classifyStoreError(new ShopeeServerError(details))).toMatchObject({
      kind: 'server',
      retryable: true,
    });
    expect(classifyStoreError(new ShopeeTimeoutError(details))).toMatchObject({
      kind: 'timeout',
      retryable: true,
    });
    expect(classifyStoreError(new ShopeeSignatureError(details))).toMatchObject({
      kind: 'signature',
      retryable: true,
    });
    expect(classifyStoreError(new ShopeeRateLimitError({ ...details, retryAfterSeconds: 7 }))).toMatchObject({
      kind: 'rate_limit',
      retryable: true,
      retryAfterMs: 7000,
    });
    expect(classifyStoreError(new ShopeeAuthError({ ...details, reauthorize: true }))).toMatchObject({
      kind: 'authorization',
      retryable: false,
    });
    expect(classifyStoreError(new OrderTranslationError('A1', 'no items'))).toMatchObject({
      kind: 'order',
      retryable: false,
    });
    expect(classifyStoreError(new Error('connection terminated'))).toMatchObject({
      kind: 'internal',
      retryable: true,
    });
  });

  it("reads a channel's failure by its kind, an unknown id or a missing call as a refused request", () => {
    const throttled = new ChannelError('rate_limit', 'slow down', { retryable: true, retryAfterMs: 3000 });
    expect(classifyStoreError(throttled)).toEqual({
      kind: 'rate_limit',
      message: 'slow down',
      retryable: true,
      retryAfterMs: 3000,
    });
    expect(
      classifyStoreError(new ChannelError('authorization', 'expired', { retryable: false })),
    ).toMatchObject({ kind: 'authorization', retryable: false });
    for (const kind of ['not_found', 'unsupported'] as const)
      expect(classifyStoreError(new ChannelError(kind, 'no', { retryable: false }))).toMatchObject({
        kind: 'request',
        retryable: false,
      });
  });
});
