import { loadOrder } from '@commands/orders/order';
import { shopeeAwbSource } from '@commands/printing/awb';
import type { ShopeeClient, ShopeeOrder } from '@integrations/shopee';
import { type StoreSettings, setStoreSettings } from '@integrations/stores';
import { connectedClient, startTestSandbox, type TestSandbox } from '@tests/integrations/shopee/support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { pageTexts } from '@tests/support/pdf-text';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal } from './inventory/inventory-api';
import { isPdf, pageCount, textLines } from './inventory/pdf';
import { importOrder, line, marketplaceOrder, seedCatalogue } from './orders-support';
import { pdfOf, print } from './printing-support';
import { connectSandboxStore, pointStoresAt } from './stores-support';

/**
 * Air waybills come from the marketplace: against the Shopee sandbox (integrations/shopee/sandbox), first through
 * the AWB source with a client built here, then through POST /api/orders/print with the account's connected
 * stores — one store's orders in one Shopee document, two stores' documents merged into one PDF — and the
 * refusals: an order Shopee will not print, and a second print under the one-print limit.
 */

describe('air waybills from the Shopee sandbox', () => {
  let test: TestSandbox;
  let client: ShopeeClient;
  let api: TestApi;
  let seller: TestSeller;
  let warehouseId: string;
  let previousSettings: StoreSettings | undefined;
  let secondShopId: number;
  /** The account's stores of the sandbox's two shops. */
  let official: string;
  let outletStore: string;

  /** Ships a sandbox order (drop-off) and answers its tracking number. */
  async function shipInSandbox(
    shopClient: ShopeeClient,
    shopId: number,
    order: ShopeeOrder,
  ): Promise<string> {
    await shopClient.shipOrder(shopId, { order_sn: order.order_sn, dropoff: {} });
    return (await shopClient.getTrackingNumber(shopId, { order_sn: order.order_sn })).tracking_number;
  }

  const readyOf = (shopId: number) =>
    test.sandbox.orders(shopId).filter((order) => order.order_status === 'READY_TO_SHIP');

  const connectStore = (shopId: number, name: string) =>
    connectSandboxStore(api, seller.tenantId, test, shopId, name);

  /** The Kedai order of a shipped sandbox order, imported into `storeId`. */
  async function kedaiOrder(storeId: string, order: ShopeeOrder, trackingNumber: string): Promise<string> {
    return importOrder(
      api,
      seller.tenantId,
      warehouseId,
      marketplaceOrder([line('BATIK-01', 1)], { orderNumber: order.order_sn, trackingNumber }),
      storeId,
    );
  }

  beforeAll(async () => {
    test = await startTestSandbox();
    ({ client } = connectedClient(test));
    secondShopId = test.sandbox.createShop({ name: 'Batik Outlet' }).shopId;
    test.sandbox.generateOrders(40);
    test.sandbox.generateOrders(20, { shopId: secondShopId });
    test.clock.advance(30 * 60_000);
    api = await createTestApi();
    seller = await createSeller(api);
    ({ warehouseId } = await seedCatalogue(api, seller.tenantId));
    previousSettings = pointStoresAt(test);
    official = await connectStore(test.shopId, 'Batik Official');
    outletStore = await connectStore(secondShopId, 'Batik Outlet');
  });
  afterAll(async () => {
    if (previousSettings) setStoreSettings(previousSettings);
    await api?.close();
    await test?.sandbox.stop();
  });

  it('gets the documents of a store’s orders as one Shopee PDF, waiting (on the sandbox clock) until they are ready', async () => {
    // A sandbox of its own that takes 2 s (of its clock) to make a document.
    const delayed = await startTestSandbox({ documentDelayMs: 2000 });
    try {
      const { client: shop } = connectedClient(delayed);
      delayed.sandbox.generateOrders(20);
      delayed.clock.advance(30 * 60_000);
      const [a, b] = delayed.sandbox.orders().filter((order) => order.order_status === 'READY_TO_SHIP');
      const trackings = [
        await shipInSandbox(shop, delayed.shopId, a!),
        await shipInSandbox(shop, delayed.shopId, b!),
      ];
      let waited = 0;
      const source = shopeeAwbSource({
        shopOf: async () => ({ client: shop, shopId: delayed.shopId }),
        pollIntervalMs: 500,
        wait: async (ms) => {
          waited += ms;
          delayed.clock.advance(ms);
        },
      });
      const pdfs = await source.documents(seller.tenantId, [
        {
          orderId: 'a',
          orderNumber: a!.order_sn,
          storeId: 's',
          platform: 'shopee',
          trackingNumber: trackings[0]!,
        },
        {
          orderId: 'b',
          orderNumber: b!.order_sn,
          storeId: 's',
          platform: 'shopee',
          trackingNumber: trackings[1]!,
        },
      ]);
      expect(pdfs).toHaveLength(1);
      expect(isPdf(pdfs[0]!)).toBe(true);
      expect(pageCount(pdfs[0]!)).toBe(2);
      const text = textLines(pdfs[0]!);
      expect(text.indexOf(trackings[0]!)).toBeGreaterThan(-1);
      expect(text.indexOf(trackings[1]!)).toBeGreaterThan(text.indexOf(trackings[0]!));
      // PROCESSING for the sandbox's 2 s, looked at every 500 ms.
      expect(waited).toBe(2000);
    } finally {
      await delayed.sandbox.stop();
    }
  });

  it('prints the AWB of an order of a connected store, with its tracking number, and marks it printed', async () => {
    const storeId = official;
    const order = readyOf(test.shopId)[0]!;
    const tracking = await shipInSandbox(client, test.shopId, order);
    const orderId = await kedaiOrder(storeId, order, tracking);
    const pdf = pdfOf(
      await print(api, seller.token, { document: 'AWB', order_ids: [orderId], origin: 'unscan' }),
    );
    expect(pageCount(pdf)).toBe(1);
    const text = textLines(pdf);
    expect(text).toContain(tracking);
    expect(text.join('\n')).toContain(`Order ID: ${order.order_sn}`);
    expect((await loadOrder(api.store, seller.tenantId, orderId)).printed).toEqual(['AWB']);
  });
  it('prints many orders of two stores as one PDF: each store’s Shopee document, merged in the order asked for', async () => {
    const first = official;
    const second = outletStore;
    const { client: outlet } = connectedClient({ ...test, shopId: secondShopId });
    const [a, c] = readyOf(test.shopId);
    const [b] = readyOf(secondShopId);
    const trackings = {
      a: await shipInSandbox(client, test.shopId, a!),
      b: await shipInSandbox(outlet, secondShopId, b!),
      c: await shipInSandbox(client, test.shopId, c!),
    };
    const ids = [
      await kedaiOrder(first, a!, trackings.a),
      await kedaiOrder(second, b!, trackings.b),
      await kedaiOrder(first, c!, trackings.c),
    ];
    const pdf = pdfOf(
      await print(api, seller.token, { document: 'AWB', order_ids: ids, origin: 'processed' }),
    );
    expect(isPdf(pdf)).toBe(true);
    expect(pageCount(pdf)).toBe(3);
    // Page by page (each page read with the fonts of the document it came from): a, then b, then c.
    const pages = pageTexts(pdf);
    expect(pages.map((page) => page.find((text) => Object.values(trackings).includes(text)))).toEqual([
      trackings.a,
      trackings.b,
      trackings.c,
    ]);
    expect(pages[1]!.join('\n')).toContain('Batik Outlet');
    expect(pages[0]!.join('\n')).toContain(`Order ID: ${a!.order_sn}`);
    for (const id of ids) expect((await loadOrder(api.store, seller.tenantId, id)).printed).toEqual(['AWB']);
  });

  it('answers "Failed to generate Waybill for the following tracking" when Shopee will not print an order', async () => {
    const storeId = official;
    const unshipped = readyOf(test.shopId)[0]!;
    const orderId = await kedaiOrder(storeId, unshipped, 'SPXMY9999999999');
    const refused = await print(api, seller.token, {
      document: 'AWB',
      order_ids: [orderId],
      origin: 'unscan',
    });
    expect(refusal(refused)).toEqual({
      status: 409,
      code: 654,
      msg: 'Failed to generate Waybill for the following tracking: SPXMY9999999999',
    });
    expect((await loadOrder(api.store, seller.tenantId, orderId)).printed).toEqual([]);
    const chinese = await print(
      api,
      seller.token,
      { document: 'AWB', order_ids: [orderId], origin: 'unscan' },
      'zh-cn',
    );
    expect(refusal(chinese).msg).toBe('以下运单号生成运单失败：SPXMY9999999999');
  });

  it('tries a Shopee call again after a passing failure, and gives up after the third', async () => {
    const order = readyOf(test.shopId)[0]!;
    const orderId = await kedaiOrder(official, order, await shipInSandbox(client, test.shopId, order));
    const body = { document: 'AWB', order_ids: [orderId], origin: 'unscan' };
    const path = '/api/v2/logistics/create_shipping_document';
    test.sandbox.failNext({ kind: '5xx', times: 2, path });
    expect(pageCount(pdfOf(await print(api, seller.token, body)))).toBe(1);
    const asked = () => test.sandbox.requests.filter((request) => request.path === path);
    expect(
      asked()
        .slice(-3)
        .map((request) => request.status),
    ).toEqual([500, 500, 200]);
    test.sandbox.failNext({ kind: '5xx', times: 3, path });
    expect(refusal(await print(api, seller.token, body))).toMatchObject({ status: 409, code: 654 });
  });

  it('prints an AWB once for a user under the AWB one-print limit', async () => {
    const storeId = official;
    const order = readyOf(test.shopId)[0]!;
    const orderId = await kedaiOrder(storeId, order, await shipInSandbox(client, test.shopId, order));
    const limited = await createSubUser(api, seller.tenantId, [
      'orders-unscan',
      'orders-awb-one-print-limit',
    ]);
    const body = { document: 'AWB', order_ids: [orderId], origin: 'unscan' };
    pdfOf(await print(api, limited.token, body));
    expect(refusal(await print(api, limited.token, body))).toEqual({
      status: 403,
      code: 655,
      msg: `Airway bill already printed for ${order.order_sn}: you may print it once only`,
    });
    pdfOf(await print(api, seller.token, body));
  });
});
