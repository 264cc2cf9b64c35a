import { randomUUID } from 'node:crypto';
import type { CategoryChoice, CategoryOption } from '@api/contracts/listings';
import type { ShopeeSandbox } from '@integrations/shopee';
import { type StoreSettings, StoreTokenStore } from '@integrations/stores';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStore, listingCalls, twoTierListing } from './listings-support';
import { startStoreSandbox } from './stores-support';

/**
 * The listing editor's categories (issue 15): a connected store's category tree, a leaf's attributes and brands,
 * read from its channel (the Shopee sandbox); a save whose category is not a leaf, or that misses a mandatory
 * attribute or brand, refused with code 790 and nothing saved; the attributes kept on the listing. Another account's
 * store is a missing one; the routes need listings-index; a store whose channel cannot answer is 409, code 791.
 */
describe('listing categories', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  let sandbox: ShopeeSandbox;
  let settings: StoreSettings;
  let restore: () => void;
  const l = listingCalls(() => api);
  let store: { id: string };
  let unauthorised: { id: string };
  let othersStore: { id: string };

  /** A store of `tenantId` connected to a new sandbox shop, its tokens stored. */
  async function connectedStore(tenantId: string, name: string) {
    const shop = sandbox.createShop({ name });
    const added = await addStore(api, tenantId, name, shop.shopId);
    await new StoreTokenStore(api.database.db, { tenantId, storeId: added.id, shopId: shop.shopId }).save(
      shop.shopId,
      sandbox.issueTokens(settings.shopee.partnerId, shop.shopId),
    );
    return added;
  }

  beforeAll(async () => {
    ({ sandbox, settings, restore } = await startStoreSandbox());
    api = await createTestApi();
    [seller, other] = await Promise.all([createSeller(api), createSeller(api)]);
    store = await connectedStore(seller.tenantId, 'Kedai Kuih');
    othersStore = await connectedStore(other.tenantId, 'Elsewhere');
    unauthorised = await addStore(api, seller.tenantId, 'Never authorised');
  });
  afterAll(async () => {
    await api?.close();
    await sandbox?.stop();
    restore?.();
  });

  const categories = (token: string, storeId: string) =>
    l.call('GET', `/api/listings/categories?store_id=${storeId}`, token);
  const choice = (token: string, storeId: string, categoryId: string) =>
    l.call('GET', `/api/listings/category?store_id=${storeId}&category_id=${categoryId}`, token);

  /** A listing without tiers in `categoryId`, with `change` applied. */
  const snackListing = (categoryId: string, change: Record<string, unknown> = {}) => ({
    ...twoTierListing([store.id], `SNACK-${randomUUID().slice(0, 6)}`),
    category_id: categoryId,
    tiers: [],
    skus: [{ seller_sku: `KEROPOK-${randomUUID().slice(0, 6)}`, price: '12.90', stock: 5, tier_index: [] }],
    ...change,
  });

  it("answers the store's category tree, each category with its parent and whether it is a leaf", async () => {
    const answer = await categories(seller.token, store.id);
    expect(answer.statusCode, answer.body).toBe(200);
    const tree = answer.json().data as CategoryOption[];
    expect(tree).toContainEqual({ id: '100017', parent_id: '100001', name: 'Tops', leaf: true });
    expect(tree).toContainEqual({ id: '100001', parent_id: null, name: "Women's Clothing", leaf: false });
  });

  it("answers a leaf's attributes and brands, and refuses a category that is not a leaf", async () => {
    const answer = await choice(seller.token, store.id, '100631');
    expect(answer.statusCode, answer.body).toBe(200);
    const snacks = answer.json().data as CategoryChoice;
    expect(snacks.category).toEqual({ id: '100631', parent_id: '100630', name: 'Snacks', leaf: true });
    expect(snacks.attributes.filter((attribute) => attribute.mandatory).map((a) => a.name)).toEqual([
      'Country of Origin',
      'Shelf Life',
    ]);
    expect(snacks.brands[0]).toEqual({ id: '0', name: 'No Brand' });
    expect(snacks.brand_mandatory).toBe(false);
    const branch = await choice(seller.token, store.id, '100001');
    expect(branch.statusCode).toBe(400);
    expect(branch.json()).toMatchObject({
      code: 790,
      msg: 'Choose a last-level category from the category list of Kedai Kuih.',
    });
  });

  it("takes another account's store as a missing one, and needs listings-index", async () => {
    for (const id of [othersStore.id, randomUUID(), 'not-an-id']) {
      const answer = await categories(seller.token, id);
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ code: 718 });
    }
    expect((await choice(seller.token, othersStore.id, '100017')).json()).toMatchObject({ code: 718 });
    const viewer = await createSubUser(api, seller.tenantId, ['listings-index']);
    const nobody = await createSubUser(api, seller.tenantId, []);
    expect((await categories(viewer.token, store.id)).statusCode).toBe(200);
    expect((await categories(nobody.token, store.id)).statusCode).toBe(403);
    expect((await choice(nobody.token, store.id, '100017')).statusCode).toBe(403);
    expect((await l.call('GET', `/api/listings/categories?store_id=${store.id}`, '')).statusCode).toBe(401);
  });

  it('answers 409 (791) when the store cannot be read from its marketplace', async () => {
    const answer = await categories(seller.token, unauthorised.id);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ code: 791 });
  });

  it('refuses a save missing a mandatory attribute (790, each by its field) or in a branch category; nothing saved', async () => {
    const id = randomUUID();
    const missing = await l.save(seller.token, id, snackListing('100631'), 'en-us');
    expect(missing.statusCode, missing.body).toBe(400);
    expect(missing.json()).toMatchObject({ code: 790 });
    const errors = missing.json().errors as { path: string; message: string }[];
    expect(errors).toEqual([
      { path: 'body/attributes/100037', message: 'Enter Country of Origin: the category requires it.' },
      { path: 'body/attributes/100095', message: 'Enter Shelf Life: the category requires it.' },
    ]);
    const branch = await l.save(seller.token, id, snackListing('100630'));
    expect(branch.statusCode).toBe(400);
    expect(branch.json()).toMatchObject({ code: 790 });
    const zh = await l.save(seller.token, id, snackListing('100631'), 'zh-cn');
    expect((zh.json().errors as { message: string }[]).map((error) => error.message)).toContain(
      '请填写Shelf Life：该类目要求此属性。',
    );
    expect((await l.get(seller.token, id)).statusCode).toBe(404);
  });

  it('saves the attributes and brand picked from the lists and reads them back', async () => {
    const snacks = (await choice(seller.token, store.id, '100631')).json().data as CategoryChoice;
    const attributes = snacks.attributes
      .filter((attribute) => attribute.mandatory)
      .map((attribute) => ({
        attribute_id: attribute.id,
        values: [{ value_id: attribute.values[0]!.id, name: attribute.values[0]!.name }],
      }));
    const mamee = snacks.brands.find((brand) => brand.name === 'Mamee')!;
    const id = randomUUID();
    const saved = await l.save(
      seller.token,
      id,
      snackListing('100631', { attributes, brand: mamee.name, brand_id: mamee.id }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    const detail = l.detail(saved);
    expect(detail.brand_id).toBe(mamee.id);
    expect(detail.attributes).toEqual(
      attributes.map((attribute) => ({
        attribute_id: attribute.attribute_id,
        values: attribute.values.map((value) => ({ ...value, unit: '' })),
      })),
    );
  });
});
