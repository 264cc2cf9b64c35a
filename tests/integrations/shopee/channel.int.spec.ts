import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChannelError, type ChannelItemDraft, ShopeeChannel } from '@integrations/channel';
import { DEFAULT_SHOP_RATE_LIMIT, jsonFileStore, SHOPEE_PATHS } from '@integrations/shopee';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clientFor,
  connectedClient,
  MemoryTokens,
  PARTNER,
  PIXEL_DATA_URL,
  startTestSandbox,
  type TestSandbox,
} from './support';

/**
 * The Shopee adapter of the channel port against the sandbox, through the signed protocol: items with two tiers
 * made, read back, their stock and prices set in batches larger than Shopee's 50 per call, unlisted, deleted;
 * and the failures a push meets (a bad signature, a throttled burst, an injected error, a slow answer).
 */

const colours = ['Black', 'White', 'Red', 'Blue', 'Green'];
const sizes = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '3XL', '4XL', '5XL', '6XL'];

/** A draft with two tiers: every colour × size (`sizeCount` sizes), SKU `<prefix>-<colour>-<size>`. */
function twoTierDraft(prefix: string, sizeCount: number): ChannelItemDraft {
  const tierSizes = sizes.slice(0, sizeCount);
  return {
    name: `Baju Kurung ${prefix}`,
    description: 'Cotton, machine washable.',
    categoryId: '100017',
    images: [PIXEL_DATA_URL],
    weightKg: 0.4,
    dimensionsCm: { length: 30, width: 20, height: 5 },
    logistics: ['20011'],
    sellerSku: prefix,
    price: '59.90',
    stock: 0,
    tiers: [
      { name: 'Colour', options: colours },
      { name: 'Size', options: tierSizes },
    ],
    models: colours.flatMap((colour, c) =>
      tierSizes.map((size, s) => ({
        tierIndex: [c, s],
        sellerSku: `${prefix}-${colour}-${size}`,
        price: '59.90',
        stock: 10,
      })),
    ),
  };
}

describe('the Shopee channel adapter against the sandbox', () => {
  let test: TestSandbox;
  let channel: ShopeeChannel;

  beforeAll(async () => {
    test = await startTestSandbox();
    channel = new ShopeeChannel(connectedClient(test).client, test.shopId);
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });
  beforeEach(() => {
    test.sandbox.resetFailures();
    test.sandbox.setShopRateLimit(DEFAULT_SHOP_RATE_LIMIT);
  });

  it('creates an item with two tiers, reads it back, and sets the stock of 60 models in one call of ours', async () => {
    const big = await channel.createItem(twoTierDraft('KURUNG-A', 10));
    const small = await channel.createItem(twoTierDraft('KURUNG-B', 2));
    expect(big.models).toHaveLength(50);
    expect(small.models).toHaveLength(10);
    expect(big.models.every((model) => model.modelId && /^\d+$/.test(model.modelId))).toBe(true);

    const [item] = await channel.getItems([big.itemId]);
    expect(item).toMatchObject({
      itemId: big.itemId,
      name: 'Baju Kurung KURUNG-A',
      sellerSku: 'KURUNG-A',
      status: 'normal',
      categoryId: '100017',
      weightKg: 0.4,
      dimensionsCm: { length: 30, width: 20, height: 5 },
      tiers: [
        { name: 'Colour', options: colours },
        { name: 'Size', options: sizes },
      ],
    });
    expect(item!.images).toHaveLength(1);
    // The uploaded image is served where the item says.
    const image = await fetch(item!.images[0]!);
    expect(image.headers.get('content-type')).toBe('image/png');
    const red = item!.models.find((model) => model.sellerSku === 'KURUNG-A-Red-M');
    expect(red).toMatchObject({ tierIndex: [2, 2], price: '59.90', stock: 10 });

    // 60 models of two items: Shopee takes one item and at most 50 models a call, so two calls.
    const updates = [...big.models, ...small.models].map((model, index) => ({
      itemId: model.sellerSku.startsWith('KURUNG-A') ? big.itemId : small.itemId,
      modelId: model.modelId!,
      quantity: index + 1,
    }));
    const before = test.sandbox.requests.filter((r) => r.path === SHOPEE_PATHS.updateStock).length;
    const outcomes = await channel.updateStock(updates);
    expect(outcomes).toHaveLength(60);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(outcomes[59]).toEqual({ itemId: small.itemId, modelId: updates[59]!.modelId, ok: true });
    const calls = test.sandbox.requests.filter((r) => r.path === SHOPEE_PATHS.updateStock).slice(before);
    expect(calls.map((call) => call.status)).toEqual([200, 200]);

    expect(test.sandbox.stockOf(test.shopId, Number(big.itemId), Number(updates[49]!.modelId))?.stock).toBe(
      50,
    );
    const stock = await channel.getStock([big.itemId, small.itemId]);
    expect(stock).toHaveLength(60);
    for (const update of updates) {
      expect(stock.find((entry) => entry.modelId === update.modelId)?.quantity).toBe(update.quantity);
    }
  });

  it('sets prices per model, and answers a refused model without failing the others', async () => {
    const created = await channel.createItem(twoTierDraft('KURUNG-P', 2));
    const [first, second] = created.models;
    const outcomes = await channel.updatePrice([
      { itemId: created.itemId, modelId: first!.modelId!, price: '49.50' },
      { itemId: created.itemId, modelId: '999', price: '10.00' },
      { itemId: created.itemId, modelId: second!.modelId!, price: '45.00' },
    ]);
    expect(outcomes.map((outcome) => outcome.ok)).toEqual([true, false, true]);
    expect(outcomes[1]).toMatchObject({
      modelId: '999',
      ok: false,
      reason: 'Wrong model_id.',
      retryable: false,
    });
    expect(test.sandbox.stockOf(test.shopId, Number(created.itemId), Number(first!.modelId))?.price).toBe(
      49.5,
    );
    const [item] = await channel.getItems([created.itemId]);
    expect(item!.models.find((model) => model.modelId === second!.modelId)?.price).toBe('45.00');
  });

  it('creates an item without variants, and changes it', async () => {
    const draft: ChannelItemDraft = {
      ...twoTierDraft('SAMBAL-1KG', 1),
      name: 'Sambal 1kg',
      tiers: [],
      models: [],
      price: '24.90',
      stock: 7,
    };
    const created = await channel.createItem(draft);
    expect(created.models).toEqual([{ sellerSku: 'SAMBAL-1KG' }]);
    expect(test.sandbox.stockOf(test.shopId, Number(created.itemId))).toMatchObject({
      stock: 7,
      price: 24.9,
    });
    await channel.updateItem(created.itemId, {
      ...draft,
      name: 'Sambal Pedas 1kg',
      price: '26.00',
      stock: 3,
    });
    const [item] = await channel.getItems([created.itemId]);
    expect(item).toMatchObject({ name: 'Sambal Pedas 1kg', price: '26.00', stock: 3, tiers: [], models: [] });
  });

  it('updates an item with the same tiers keeping its model ids, and new tiers give new models', async () => {
    const draft = twoTierDraft('KURUNG-U', 2);
    const created = await channel.createItem(draft);
    const same = await channel.updateItem(created.itemId, {
      ...draft,
      models: draft.models.map((model) => ({ ...model, price: '61.00', stock: 4 })),
    });
    expect(same.models).toEqual(created.models);
    const redS = created.models.find((model) => model.sellerSku === 'KURUNG-U-Red-S')!;
    expect(test.sandbox.stockOf(test.shopId, Number(created.itemId), Number(redS.modelId))).toMatchObject({
      stock: 4,
      price: 61,
    });
    const wider = twoTierDraft('KURUNG-U', 3);
    const changed = await channel.updateItem(created.itemId, wider);
    expect(changed.models).toHaveLength(15);
    const [item] = await channel.getItems([created.itemId]);
    expect(item!.tiers[1]!.options).toEqual(['XS', 'S', 'M']);
    expect(item!.models).toHaveLength(15);
  });

  it('unlists, lists and deletes an item; listItems pages over what is left', async () => {
    const created = await channel.createItem(twoTierDraft('KURUNG-D', 1));
    await channel.setListed(created.itemId, false);
    expect((await channel.getItems([created.itemId]))[0]!.status).toBe('unlisted');
    await channel.setListed(created.itemId, true);
    expect((await channel.getItems([created.itemId]))[0]!.status).toBe('normal');

    const listed = async () => {
      const ids: string[] = [];
      let page: string | undefined;
      do {
        const answer = await channel.listItems(page);
        ids.push(...answer.items.map((item) => item.itemId));
        page = answer.next;
      } while (page);
      return ids;
    };
    expect(await listed()).toContain(created.itemId);
    await channel.deleteItem(created.itemId);
    expect(await listed()).not.toContain(created.itemId);
    expect((await channel.getItems([created.itemId]))[0]!.status).toBe('deleted');
    const gone = await channel.setListed(created.itemId, false).catch((error: unknown) => error);
    expect(gone).toMatchObject({ kind: 'not_found', retryable: false });
    const again = await channel.deleteItem(created.itemId).catch((error: unknown) => error);
    expect(again).toBeInstanceOf(ChannelError);
    expect(again).toMatchObject({ kind: 'not_found', options: { channelCode: 'error_item_not_found' } });
  });

  it("keeps the shop's own products as items, whose stock an order lowers", async () => {
    const { items } = await channel.listItems();
    const all = await channel.getItems(items.map((item) => item.itemId));
    const tshirt = all.find((item) => item.sellerSku === 'TSHIRT');
    expect(tshirt?.models.map((model) => model.sellerSku)).toEqual(['TSHIRT-BLK-M', 'TSHIRT-WHT-L']);
    const [order] = test.sandbox.generateOrders(1);
    const line = order!.item_list![0]!;
    const [sold] = await channel.getItems([String(line.item_id)]);
    const quantity =
      line.model_id === 0
        ? sold!.stock
        : sold!.models.find((m) => m.modelId === String(line.model_id))!.stock;
    expect(quantity).toBe(100 - line.model_quantity_purchased);
  });

  it('keeps items, stock and prices across a restart', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'shopee-items-'));
    const first = await startTestSandbox({ store: jsonFileStore(dir) });
    try {
      const kept = new ShopeeChannel(connectedClient(first).client, first.shopId);
      const created = await kept.createItem(twoTierDraft('KURUNG-K', 1));
      const model = created.models[3]!;
      await kept.updateStock([{ itemId: created.itemId, modelId: model.modelId!, quantity: 42 }]);
      await first.sandbox.stop();
      const second = await startTestSandbox({ store: jsonFileStore(dir), clock: first.clock });
      try {
        expect(
          second.sandbox.stockOf(second.shopId, Number(created.itemId), Number(model.modelId)),
        ).toMatchObject({
          stock: 42,
          price: 59.9,
          model_sku: model.sellerSku,
        });
        // Ids handed out after the restart are new ones.
        const again = new ShopeeChannel(connectedClient(second).client, second.shopId);
        const next = await again.createItem(twoTierDraft('KURUNG-K2', 1));
        expect(Number(next.itemId)).toBeGreaterThan(Number(created.itemId));
      } finally {
        await second.sandbox.stop();
      }
    } finally {
      await first.sandbox.stop();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a bad signature', async () => {
    const tokens = new MemoryTokens();
    tokens.put(test.shopId, test.sandbox.issueTokens(PARTNER.partnerId, test.shopId));
    const forged = new ShopeeChannel(clientFor(test, tokens, { partnerKey: 'not-the-key' }), test.shopId);
    const failed = await forged.listItems().catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ChannelError);
    expect(failed).toMatchObject({ kind: 'signature', options: { channelCode: 'error_sign' } });
  });

  it('throttles a burst: rate_limit, retryable, with the time to wait', async () => {
    test.sandbox.setShopRateLimit({ burst: 3, perSecond: 0.5 });
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => channel.listItems()));
    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
    expect(refused).toHaveLength(5);
    for (const error of refused) {
      expect(error).toBeInstanceOf(ChannelError);
      expect(error).toMatchObject({ kind: 'rate_limit', retryable: true });
      expect((error as ChannelError).options.retryAfterMs).toBeGreaterThanOrEqual(1000);
    }
  });

  it('fails the calls it is told to, and the updates of the other items still go through', async () => {
    const a = await channel.createItem(twoTierDraft('KURUNG-F1', 1));
    const b = await channel.createItem(twoTierDraft('KURUNG-F2', 1));
    test.sandbox.failNext({
      kind: 'error',
      path: SHOPEE_PATHS.updateStock,
      error: 'error_system_busy',
      message: 'Our system is taking some time to respond, please try later.',
      status: 500,
    });
    const outcomes = await channel.updateStock([
      ...a.models.map((model) => ({ itemId: a.itemId, modelId: model.modelId!, quantity: 1 })),
      ...b.models.map((model) => ({ itemId: b.itemId, modelId: model.modelId!, quantity: 2 })),
    ]);
    expect(outcomes.slice(0, 5).every((outcome) => !outcome.ok && outcome.retryable)).toBe(true);
    expect(outcomes.slice(5).every((outcome) => outcome.ok)).toBe(true);

    // One call, failing: the ChannelError itself.
    test.sandbox.failNext({ kind: 'error', path: SHOPEE_PATHS.updateStock, error: 'error_system_busy' });
    const failed = await channel
      .updateStock([{ itemId: a.itemId, modelId: a.models[0]!.modelId!, quantity: 3 }])
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({
      kind: 'server',
      retryable: true,
      options: { channelCode: 'error_system_busy' },
    });
  });

  it('lags the calls it is told to', async () => {
    test.sandbox.failNext({ kind: 'lag', path: SHOPEE_PATHS.itemList, delayMs: 400 });
    const started = performance.now();
    await channel.listItems();
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
    const quick = performance.now();
    await channel.listItems();
    expect(performance.now() - quick).toBeLessThan(390);
  });

  it('takes its test controls over HTTP too', async () => {
    const created = await channel.createItem(twoTierDraft('KURUNG-C', 1));
    const model = created.models[0]!;
    const post = (path: string, body: unknown) =>
      fetch(`${test.sandbox.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect(
      (
        await post('/sandbox/control/fail', {
          kind: 'error',
          path: SHOPEE_PATHS.updatePrice,
          error: 'error_busi',
        })
      ).status,
    ).toBe(200);
    const failed = await channel
      .updatePrice([{ itemId: created.itemId, modelId: model.modelId!, price: '1.00' }])
      .catch((error: unknown) => error);
    expect(failed).toMatchObject({ kind: 'server', options: { channelCode: 'error_busi' } });
    expect((await post('/sandbox/control/fail', { kind: 'nonsense' })).status).toBe(400);

    await channel.updateStock([{ itemId: created.itemId, modelId: model.modelId!, quantity: 33 }]);
    const read = await fetch(
      `${test.sandbox.url}/sandbox/control/stock?shop_id=${test.shopId}&item_id=${created.itemId}&model_id=${model.modelId}`,
    );
    expect(await read.json()).toMatchObject({ stock: 33, price: 59.9, model_sku: model.sellerSku });

    expect((await post('/sandbox/control/throttle', { burst: 1, perSecond: 0.1 })).status).toBe(200);
    await channel.listItems();
    await expect(channel.listItems()).rejects.toMatchObject({ kind: 'rate_limit' });
    expect((await post('/sandbox/control/throttle', { off: true })).status).toBe(200);
    await channel.listItems();
  });

  it('creates a discount with promotion prices, deletes it before it starts, ends it once it runs', async () => {
    const own = await startTestSandbox();
    try {
      const shop = new ShopeeChannel(connectedClient(own).client, own.shopId);
      const created = await shop.createItem(twoTierDraft('KURUNG-DC', 1));
      const [first, second] = created.models;
      const hour = 3600;
      const now = Math.floor(own.clock.now() / 1000);
      const draft = {
        name: 'Raya sale',
        startTime: now + 2 * hour,
        endTime: now + 72 * hour,
        items: [
          { itemId: created.itemId, modelId: first!.modelId!, promoPrice: '49.90', purchaseLimit: 2 },
          { itemId: created.itemId, modelId: second!.modelId!, promoPrice: '45.00' },
        ],
      };
      const upcoming = await shop.createDiscount(draft);
      expect(own.sandbox.discountOf(own.shopId, Number(upcoming.discountId))).toMatchObject({
        discount_name: 'Raya sale',
        status: 'active',
        items: [
          {
            item_id: Number(created.itemId),
            model_id: Number(first!.modelId),
            promotion_price: 49.9,
            purchase_limit: 2,
          },
          {
            item_id: Number(created.itemId),
            model_id: Number(second!.modelId),
            promotion_price: 45,
            // Shopee's purchase limit is the item's.
            purchase_limit: 2,
          },
        ],
      });
      // Not started yet: Shopee only deletes it.
      await shop.endDiscount(upcoming.discountId);
      expect(own.sandbox.discountOf(own.shopId, Number(upcoming.discountId))?.status).toBe('deleted');

      const running = await shop.createDiscount(draft);
      own.clock.advance(3 * hour * 1000 + 1000);
      await shop.endDiscount(running.discountId);
      expect(own.sandbox.discountOf(own.shopId, Number(running.discountId))).toMatchObject({
        status: 'ended',
      });
      await expect(shop.endDiscount(running.discountId)).rejects.toMatchObject({ kind: 'request' });

      // A promotion price above the price: refused, and the half-made discount is not left behind.
      const later = Math.floor(own.clock.now() / 1000);
      const refused = await shop
        .createDiscount({
          ...draft,
          startTime: later + 2 * hour,
          endTime: later + 5 * hour,
          items: [{ ...draft.items[0]!, promoPrice: '99.00' }],
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({
        kind: 'request',
        retryable: false,
        options: { channelCode: 'discount.promotion_price_higher_input_price' },
      });
      expect(own.sandbox.requests.at(-1)).toMatchObject({ path: SHOPEE_PATHS.deleteDiscount, status: 200 });
      // Starting within the hour: Shopee's refusal.
      await expect(shop.createDiscount({ ...draft, startTime: later + 60 })).rejects.toMatchObject({
        kind: 'request',
        options: { channelCode: 'discount.discount_start_time_smaller_than_now' },
      });
    } finally {
      await own.sandbox.stop();
    }
  });

  it('creates a gift-with-purchase deal, deletes it before it starts, ends it once it runs', async () => {
    const own = await startTestSandbox();
    try {
      const shop = new ShopeeChannel(connectedClient(own).client, own.shopId);
      const main = await shop.createItem(twoTierDraft('KURUNG-G', 1));
      const gift = await shop.createItem({
        ...twoTierDraft('TUDUNG-GIFT', 1),
        tiers: [],
        models: [],
        stock: 30,
      });
      const hour = 3600;
      const now = Math.floor(own.clock.now() / 1000);
      const draft = {
        name: 'Free tudung above RM100',
        startTime: now + 2 * hour,
        endTime: now + 48 * hour,
        purchaseMinSpend: '100.00',
        giftsPerOrder: 1,
        mainItems: [{ itemId: main.itemId }],
        giftItems: [{ itemId: gift.itemId }],
      };
      const upcoming = await shop.createGiftPromotion(draft);
      expect(own.sandbox.addOnDealOf(own.shopId, Number(upcoming.promotionId))).toMatchObject({
        promotion_type: 1,
        purchase_min_spend: 100,
        per_gift_num: 1,
        status: 'active',
        main_items: [Number(main.itemId)],
        sub_items: [{ item_id: Number(gift.itemId), model_id: 0 }],
      });
      await shop.endGiftPromotion(upcoming.promotionId);
      expect(own.sandbox.addOnDealOf(own.shopId, Number(upcoming.promotionId))?.status).toBe('deleted');

      const running = await shop.createGiftPromotion(draft);
      own.clock.advance(3 * hour * 1000);
      await shop.endGiftPromotion(running.promotionId);
      expect(own.sandbox.addOnDealOf(own.shopId, Number(running.promotionId))?.status).toBe('ended');

      // A gift that is not the shop's: refused item by item, and the deal is not left behind.
      const later = Math.floor(own.clock.now() / 1000);
      const refused = await shop
        .createGiftPromotion({
          ...draft,
          startTime: later + 2 * hour,
          endTime: later + 5 * hour,
          giftItems: [{ itemId: '123456' }],
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ kind: 'request', options: { channelCode: 'add_on.add_on_no_item' } });
      expect(own.sandbox.requests.at(-1)).toMatchObject({ path: SHOPEE_PATHS.deleteAddOnDeal, status: 200 });
      await expect(shop.endGiftPromotion('987654')).rejects.toMatchObject({ kind: 'not_found' });
    } finally {
      await own.sandbox.stop();
    }
  });
});
