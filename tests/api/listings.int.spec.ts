import { randomUUID } from 'node:crypto';
import { LISTINGS_PROJECTION } from '@projections/listings';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stockCalls } from './inventory/stock-api';
import { addStore, listingCalls, PIXEL_PNG, twoTierListing, uploadImage } from './listings-support';

/**
 * Issue 15, listings through the API (spec §5, §7, §8): save a listing with two tiers, read it back and find it in
 * the list under the §4 status filter; every refusal of bad input answers its code and message and saves nothing;
 * the SKU existence check; a master code already listed asks for confirmation; another account's listings and
 * stores are missing; each route checks its permission key.
 */
describe('listings', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  const l = listingCalls(() => api);
  let shopA: { id: string };
  let shopB: { id: string };
  let othersShop: { id: string };

  beforeAll(async () => {
    api = await createTestApi();
    [seller, other] = await Promise.all([createSeller(api), createSeller(api)]);
    shopA = await addStore(api, seller.tenantId, 'Shop A');
    shopB = await addStore(api, seller.tenantId, 'Shop B');
    othersShop = await addStore(api, other.tenantId, 'Elsewhere');
  });
  afterAll(async () => {
    await api?.close();
  });

  const streamLength = async (id: string) => {
    let count = 0;
    for await (const _ of api.store.readStream(`listing-${seller.tenantId}.${id}`)) count += 1;
    return count;
  };

  it('saves a listing with two tiers, reads it back and lists it as a draft', async () => {
    const id = randomUUID();
    const saved = await l.save(seller.token, id, twoTierListing([shopA.id, shopB.id]));
    expect(saved.statusCode, saved.body).toBe(200);
    const detail = l.detail(saved);
    expect(detail).toMatchObject({ id, status: 'draft', gtin: '00', revision: 0 });
    expect(detail.skus.map((sku) => sku.variant_info.map((v) => v.value).join('/'))).toEqual([
      'Red/M',
      'Red/L',
      'Blue/M',
      'Blue/L',
    ]);
    expect(detail.stores.map((store) => [store.store_name, store.actions])).toEqual([
      ['Shop A', ['publish']],
      ['Shop B', ['publish']],
    ]);
    expect(l.detail(await l.get(seller.token, id))).toEqual(detail);

    await api.engine.catchUp(LISTINGS_PROJECTION);
    const drafts = (await l.list(seller.token, 'status=draft')).json() as {
      data: { rows: { id: string; sku_count: number; min_price: string }[] };
    };
    expect(drafts.data.rows.find((row) => row.id === id)).toMatchObject({ sku_count: 4, min_price: '39.90' });
    const active = (await l.list(seller.token, 'status=active')).json() as {
      data: { rows: { id: string }[] };
    };
    expect(active.data.rows.some((row) => row.id === id)).toBe(false);
  });

  it('answers each bad listing with the spec message and saves nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ store_ids: [] }, 700, 'No store selected'],
      [
        { store_ids: Array.from({ length: 21 }, () => randomUUID()) },
        701,
        'selected store count exceeds the limit of 20',
      ],
      [{ images: [] }, 702, 'No image'],
      [{ category_id: '' }, 703, 'No category selected'],
      [{ logistics: [] }, 704, 'No logistics configured'],
      [{ store_ids: [othersShop.id] }, 718, 'A selected store was not found: reselect the stores.'],
      [{ images: [{ id: randomUUID() }] }, 721, 'An uploaded image was not found: upload it again.'],
    ];
    for (const [change, code, msg] of cases) {
      const id = randomUUID();
      const answer = await l.save(seller.token, id, { ...twoTierListing([shopA.id]), ...change });
      expect(answer.statusCode, answer.body).toBe(400);
      expect(answer.json()).toMatchObject({ code, msg });
      expect(await streamLength(id)).toBe(0);
    }
  });

  it('refuses 51 Shopee combinations', async () => {
    const options = (n: number) => Array.from({ length: n }, (_, i) => `o${i}`);
    const body = {
      ...twoTierListing([shopA.id]),
      tiers: [
        { name: 'A', options: options(17) },
        { name: 'B', options: options(3) },
      ],
      skus: Array.from({ length: 51 }, (_, i) => ({
        seller_sku: `C${i}`,
        price: '5.00',
        stock: 1,
        tier_index: [Math.floor(i / 3), i % 3],
      })),
    };
    const id = randomUUID();
    const answer = await l.save(seller.token, id, body);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({
      code: 707,
      msg: 'Shopee allows at most 50 variant combinations (51 given).',
    });
    expect(await streamLength(id)).toBe(0);
  });

  it('asks before adding a master code already listed, and before a tier change unlinks master codes', async () => {
    const stock = stockCalls(() => api);
    const code = await stock.masterCode(seller.token, `LISTED-${randomUUID().slice(0, 6)}`);
    const first = randomUUID();
    expect((await l.save(seller.token, first, twoTierListing([shopA.id], 'ONE', code.id))).statusCode).toBe(
      200,
    );
    await api.engine.catchUp(LISTINGS_PROJECTION);

    const second = randomUUID();
    const asked = await l.save(seller.token, second, twoTierListing([shopA.id], 'TWO', code.id));
    expect(asked.statusCode).toBe(409);
    expect(asked.json()).toMatchObject({ code: 716 });
    expect(await streamLength(second)).toBe(0);
    const confirmed = await l.save(seller.token, second, {
      ...twoTierListing([shopA.id], 'TWO', code.id),
      confirm_listed_master_codes: true,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const oneTier = {
      ...twoTierListing([shopA.id], 'ONE', code.id),
      tiers: [{ name: 'Colour', options: ['Red', 'Blue'] }],
      skus: [
        { seller_sku: 'ONE-R', price: '39.90', stock: 3, tier_index: [0], master_code_id: code.id },
        { seller_sku: 'ONE-B', price: '39.90', stock: 3, tier_index: [1] },
      ],
    };
    const unlink = await l.save(seller.token, first, oneTier);
    expect(unlink.statusCode).toBe(409);
    expect(unlink.json()).toMatchObject({
      code: 714,
      msg: 'Changing Shopee variant tiers removes the master code link',
    });
    const unlinked = await l.save(seller.token, first, { ...oneTier, confirm_unlink_master_codes: true });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(l.detail(unlinked).skus.map((sku) => sku.master_code)).toEqual([null, null]);
  });

  it('refuses a save made against an older revision', async () => {
    const id = randomUUID();
    expect((await l.save(seller.token, id, twoTierListing([shopA.id], 'REV'))).statusCode).toBe(200);
    expect(
      (await l.save(seller.token, id, { ...twoTierListing([shopA.id], 'REV'), brand: 'New', revision: 0 }))
        .statusCode,
    ).toBe(200);
    const stale = await l.save(seller.token, id, {
      ...twoTierListing([shopA.id], 'REV'),
      brand: 'Stale',
      revision: 0,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 725 });
    expect(l.detail(await l.get(seller.token, id)).brand).toBe('New');
  });

  it('checks SKUs: in another listing, repeated in the request, or sold by a store', async () => {
    const id = randomUUID();
    expect((await l.save(seller.token, id, twoTierListing([shopA.id], 'CHK'))).statusCode).toBe(200);
    await api.engine.catchUp(LISTINGS_PROJECTION);
    await api.database.db
      .insertInto('channel_skus')
      .values({
        tenant_id: seller.tenantId,
        store_id: shopB.id,
        item_id: '1',
        seller_sku: 'SOLD-1',
        item_name: 'Sold',
      })
      .execute();
    const check = await l.call('POST', '/api/listing/check/exist_sku', seller.token, {
      skus: ['chk-rm', 'SOLD-1', 'NEW-1', 'NEW-1'],
      group_id: randomUUID(),
    });
    expect(check.statusCode, check.body).toBe(200);
    expect(check.json().data).toEqual({
      exist_in_store: ['SOLD-1'],
      exist_in_variant: ['chk-rm'],
      have_duplicate: true,
    });
    // The listing itself is not "another variant"; another account sees none of it.
    const own = await l.call('POST', '/api/listing/check/exist_sku', seller.token, {
      skus: ['CHK-RM'],
      group_id: id,
    });
    expect(own.json().data.exist_in_variant).toEqual([]);
    const theirs = await l.call('POST', '/api/listing/check/exist_sku', other.token, {
      skus: ['CHK-RM', 'SOLD-1'],
    });
    expect(theirs.json().data).toEqual({ exist_in_store: [], exist_in_variant: [], have_duplicate: false });
  });

  it("keeps accounts apart: another account's listing is missing, in the list too", async () => {
    const id = randomUUID();
    expect((await l.save(seller.token, id, twoTierListing([shopA.id], 'MINE'))).statusCode).toBe(200);
    await api.engine.catchUp(LISTINGS_PROJECTION);
    const missing = await l.get(other.token, id);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 722, msg: 'No product found' });
    const overwrite = await l.save(other.token, id, twoTierListing([othersShop.id], 'THEIRS'));
    // Their save of the same id makes their own listing: streams are per account.
    expect(overwrite.statusCode, overwrite.body).toBe(200);
    expect(l.detail(await l.get(seller.token, id)).skus[0]!.seller_sku).toBe('MINE-RM');
    await api.engine.catchUp(LISTINGS_PROJECTION);
    const rows = (await l.list(other.token)).json().data.rows as { id: string; parent_sku: string }[];
    expect(rows.map((row) => row.parent_sku)).toEqual(['THEIRS-RM']);
  });

  it('checks the permission keys: view with listings-index, save with listings-manage, unlist with marketplace_control', async () => {
    const id = randomUUID();
    expect((await l.save(seller.token, id, twoTierListing([shopA.id], 'KEYS'))).statusCode).toBe(200);
    const viewer = await createSubUser(api, seller.tenantId, ['listings-index']);
    const manager = await createSubUser(api, seller.tenantId, ['listings-manage']);
    const nobody = await createSubUser(api, seller.tenantId, []);
    expect((await l.get(viewer.token, id)).statusCode).toBe(200);
    expect((await l.list(viewer.token)).statusCode).toBe(200);
    expect((await l.get(nobody.token, id)).statusCode).toBe(403);
    expect((await l.save(viewer.token, id, twoTierListing([shopA.id], 'KEYS'))).statusCode).toBe(403);
    expect(
      (await l.call('POST', '/api/listing/check/exist_sku', viewer.token, { skus: ['X'] })).statusCode,
    ).toBe(403);
    expect((await l.call('POST', `/api/listing/unlist/${id}`, manager.token, {})).statusCode).toBe(403);
    expect(
      (await l.save(manager.token, id, { ...twoTierListing([shopA.id], 'KEYS'), brand: 'B' })).statusCode,
    ).toBe(200);
  });

  it('stores uploaded images for the listing and serves them to the account only', async () => {
    const upload = await uploadImage(api, seller.token, PIXEL_PNG);
    expect(upload.statusCode, upload.body).toBe(200);
    const imageId = upload.json().data.id as string;
    const bad = await uploadImage(api, seller.token, Buffer.from('not an image'), 'application/octet-stream');
    expect(bad.json()).toMatchObject({ code: 720, msg: 'Image upload failed, try again' });
    const id = randomUUID();
    const saved = await l.save(seller.token, id, {
      ...twoTierListing([shopA.id], 'IMG'),
      images: [{ id: imageId }],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await l.call('GET', `/api/listing/images/${imageId}`, seller.token)).statusCode).toBe(200);
    expect((await l.call('GET', `/api/listing/images/${imageId}`, other.token)).statusCode).toBe(404);
  });

  it('bulk edits several listings: one save each, a stale one answered with its reason', async () => {
    const a = randomUUID();
    const b = randomUUID();
    expect((await l.save(seller.token, a, twoTierListing([shopA.id], 'BULKA'))).statusCode).toBe(200);
    expect((await l.save(seller.token, b, twoTierListing([shopA.id], 'BULKB'))).statusCode).toBe(200);
    const answer = await l.call('POST', '/api/listings/bulk-edit', seller.token, {
      listings: [
        {
          id: a,
          revision: 0,
          product_name: 'Batik A',
          skus: [{ seller_sku: 'BULKA-RM', price: '29.90', stock: 4 }],
        },
        { id: b, revision: 5, skus: [{ seller_sku: 'BULKB-RM', stock: 1 }] },
      ],
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ saved: 1, failed: [{ id: b, code: 725 }] });
    const edited = l.detail(await l.get(seller.token, a));
    expect(edited.product_name).toBe('Batik A');
    expect(edited.skus[0]).toMatchObject({ price: '29.90', stock: 4 });
    expect(l.detail(await l.get(seller.token, b)).skus[0]).toMatchObject({ stock: 10 });
  });
});
