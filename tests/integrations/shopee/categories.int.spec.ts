import { ChannelError, type ChannelItemDraft, ShopeeChannel } from '@integrations/channel';
import { SHOPEE_PATHS, ShopeeRequestError, ShopeeSignatureError } from '@integrations/shopee';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
 * Categories, attributes and brands (get_category, get_attribute_tree, get_brand_list) and search_item, through
 * the signed protocol against the sandbox: their shapes, the signature they need, add_item's refusals of a
 * non-leaf category, a missing mandatory attribute or brand; and a create asked twice for one seller SKU (a retry
 * after an answer that was lost) leaving one item on the shop.
 */

const draft = (sellerSku: string, change: Partial<ChannelItemDraft> = {}): ChannelItemDraft => ({
  name: `Kuih raya ${sellerSku}`,
  description: 'Baked in Melaka.',
  categoryId: '100017',
  images: [PIXEL_DATA_URL],
  weightKg: 0.5,
  logistics: ['20011'],
  sellerSku,
  price: '19.90',
  stock: 5,
  tiers: [],
  models: [],
  ...change,
});

describe('Shopee categories, attributes, brands and item search against the sandbox', () => {
  let test: TestSandbox;
  let channel: ShopeeChannel;

  beforeAll(async () => {
    test = await startTestSandbox();
    channel = new ShopeeChannel(connectedClient(test).client, test.shopId);
  });
  afterAll(async () => {
    await test?.sandbox.stop();
  });

  it('reads the category tree: first-level categories, their leaves, parents named', async () => {
    const { client } = connectedClient(test);
    const raw = await client.getCategories(test.shopId);
    expect(raw).toContainEqual({
      category_id: 100_001,
      parent_category_id: 0,
      original_category_name: "Women's Clothing",
      display_category_name: "Women's Clothing",
      has_children: true,
    });
    const categories = await channel.getCategories();
    const tops = categories.find((category) => category.categoryId === '100017');
    expect(tops).toEqual({ categoryId: '100017', parentId: '100001', name: 'Tops', leaf: true });
    expect(categories.filter((category) => category.parentId === null).length).toBeGreaterThanOrEqual(3);
    // A branch below a first-level category, with a leaf of its own.
    expect(categories.find((category) => category.categoryId === '100019')).toMatchObject({ leaf: false });
    expect(categories.find((category) => category.categoryId === '100020')).toMatchObject({
      parentId: '100019',
      leaf: true,
    });
    expect(test.sandbox.requests.at(-1)).toMatchObject({ path: SHOPEE_PATHS.getCategory, status: 200 });
  });

  it("reads a leaf's attributes (mandatory ones, value lists, units) and brands with No Brand", async () => {
    const attributes = await channel.getAttributes('100631');
    expect(attributes.filter((attribute) => attribute.mandatory).map((attribute) => attribute.name)).toEqual([
      'Country of Origin',
      'Shelf Life',
    ]);
    expect(attributes.find((attribute) => attribute.name === 'Shelf Life')).toMatchObject({
      input: 'select',
      values: expect.arrayContaining([expect.objectContaining({ name: '6 Months' })]),
    });
    expect(attributes.find((attribute) => attribute.name === 'Weight')).toMatchObject({
      mandatory: false,
      input: 'text',
      units: ['g', 'kg'],
    });
    const phones = await channel.getBrands('100535');
    expect(phones.mandatory).toBe(true);
    expect(phones.brands[0]).toEqual({ brandId: '0', name: 'No Brand' });
    expect(phones.brands.map((brand) => brand.name)).toContain('Samsung');
    expect((await channel.getBrands('100017')).mandatory).toBe(false);
  });

  it('refuses attributes of a category that is not a leaf, and of one it does not have', async () => {
    for (const id of ['100001', '999999', 'abc']) {
      const failed = await channel.getAttributes(id).catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ChannelError);
      expect(failed).toMatchObject({ kind: 'not_found' });
    }
  });

  it('needs the signature: a forged one is refused on each of the new calls', async () => {
    const tokens = new MemoryTokens();
    tokens.put(test.shopId, test.sandbox.issueTokens(PARTNER.partnerId, test.shopId));
    const forged = clientFor(test, tokens, { partnerKey: 'not-the-key' });
    for (const call of [
      () => forged.getCategories(test.shopId),
      () => forged.getAttributeTree(test.shopId, { category_id_list: [100_017] }),
      () => forged.getBrandList(test.shopId, { offset: 0, page_size: 10, category_id: 100_017, status: 1 }),
      () => forged.searchItem(test.shopId, { page_size: 10, item_sku: 'X' }),
    ]) {
      const failed = await call().catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(ShopeeSignatureError);
      expect(failed).toMatchObject({ code: 'error_sign' });
    }
  });

  it('add_item refuses a branch category, a missing mandatory attribute, a phone without its brand', async () => {
    const refusal = async (change: Partial<ChannelItemDraft>) =>
      channel.createItem(draft(`REFUSED-${Math.random()}`, change)).catch((error: unknown) => error);
    expect(await refusal({ categoryId: '100001' })).toMatchObject({
      options: { channelCode: 'error_invalid_category' },
    });
    expect(await refusal({ categoryId: '100631' })).toMatchObject({
      options: { channelCode: 'error_less_required_attribute' },
    });
    const [storage] = await channel.getAttributes('100535');
    const withStorage = [
      { attributeId: storage!.attributeId, values: [{ valueId: storage!.values[0]!.valueId, name: '' }] },
    ];
    expect(await refusal({ categoryId: '100535', attributes: withStorage })).toMatchObject({
      options: { channelCode: 'error_less_required_brand' },
    });
  });

  it('creates an item with its attributes and brand, and finds it by seller SKU, exactly', async () => {
    const attributes = await channel.getAttributes('100631');
    const brands = await channel.getBrands('100631');
    const mamee = brands.brands.find((brand) => brand.name === 'Mamee')!;
    const values = attributes
      .filter((attribute) => attribute.mandatory)
      .map((attribute) => ({
        attributeId: attribute.attributeId,
        values: [{ valueId: attribute.values[0]!.valueId, name: attribute.values[0]!.name }],
      }));
    const created = await channel.createItem(
      draft('SNACK-KEROPOK', {
        categoryId: '100631',
        brand: mamee.name,
        brandId: mamee.brandId,
        attributes: [...values, { attributeId: '100999', values: [{ name: '250', unit: 'g' }] }],
      }),
    );
    const sent = test.sandbox.requests.filter((request) => request.path === SHOPEE_PATHS.addItem).at(-1);
    expect(sent).toMatchObject({ status: 200 });
    expect(await channel.findItemBySellerSku('snack-keropok')).toBe(created.itemId);
    // search_item matches a SKU containing the keyword: a longer SKU is not the item.
    expect(await channel.findItemBySellerSku('SNACK-KERO')).toBeUndefined();
    const { client } = connectedClient(test);
    const search = await client.searchItem(test.shopId, { page_size: 10, item_sku: 'SNACK-KERO' });
    expect(search.item_id_list).toEqual([Number(created.itemId)]);
    expect(search.total_count).toBe(1);
    const refused = await client.searchItem(test.shopId, { page_size: 10 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShopeeRequestError);
  });

  it('a create asked twice for one seller SKU (the first answer lost) leaves one item, changed to the second', async () => {
    const first = await channel.createItem(draft('RAYA-COOKIES'));
    // The caller never heard the first answer (its worker died before recording it) and asks again.
    const second = await channel.createItem(draft('RAYA-COOKIES', { name: 'Kuih raya, tin of 40' }));
    expect(second).toMatchObject({ itemId: first.itemId, adopted: true });
    const { client } = connectedClient(test);
    const search = await client.searchItem(test.shopId, { page_size: 10, item_sku: 'RAYA-COOKIES' });
    expect(search.item_id_list).toEqual([Number(first.itemId)]);
    const [item] = await channel.getItems([first.itemId]);
    expect(item).toMatchObject({ name: 'Kuih raya, tin of 40', price: '19.90', stock: 5 });
    // A deleted item is not taken: a create after it makes a new one.
    await channel.deleteItem(first.itemId);
    const third = await channel.createItem(draft('RAYA-COOKIES'));
    expect(third.itemId).not.toBe(first.itemId);
  });
});
