import { randomUUID } from 'node:crypto';
import type { ListingBody, ListingDetail } from '@api/contracts/listings';
import { caller, type TestApi } from '@tests/support/api';

/** What the listing tests share: stores of an account, a listing body with two tiers, and the listing calls. */

/** A connected Shopee store of the account, as connecting one leaves it (shop id `shopId`). */
export async function addStore(
  api: TestApi,
  tenantId: string,
  name: string,
  shopId = Math.floor(Math.random() * 1e9),
) {
  const id = randomUUID();
  await api.database.db
    .insertInto('stores')
    .values({
      id,
      tenant_id: tenantId,
      platform: 'shopee',
      name,
      shop_id: shopId,
      region: 'MY',
      status: 'connected',
      connected_at: new Date(),
    })
    .execute();
  return { id, shopId };
}

/** A listing with two tiers (colour × size) and four SKU rows, for `storeIds`. */
export function twoTierListing(
  storeIds: string[],
  prefix = 'BATIK',
  masterCodeId: string | null = null,
): ListingBody {
  const colours = ['Red', 'Blue'];
  const sizes = ['M', 'L'];
  return {
    platform: 'shopee',
    store_ids: storeIds,
    product_name: 'Batik shirt',
    brand: 'Kedai',
    category_id: '100017',
    description: 'Hand-drawn batik from Terengganu',
    package_weight: 0.3,
    logistics: ['20011'],
    images: [{ url: 'https://img.kedai.test/batik-1.jpg' }],
    tiers: [
      { name: 'Colour', options: colours },
      { name: 'Size', options: sizes },
    ],
    skus: colours.flatMap((colour, c) =>
      sizes.map((size, s) => ({
        seller_sku: `${prefix}-${colour[0]}${size}`,
        price: '39.90',
        stock: 10,
        tier_index: [c, s],
        master_code_id: c === 0 && s === 0 ? masterCodeId : null,
      })),
    ),
  };
}

/** A 1×1 PNG. */
export const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Uploads `bytes` as a listing image; the answer. */
export const uploadImage = (api: TestApi, token: string, bytes: Buffer, contentType = 'image/png') =>
  api.app.inject({
    method: 'POST',
    url: '/api/listing/images',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload: bytes,
  });

export function listingCalls(api: () => TestApi) {
  const call = caller(api);
  return {
    call,
    save: (token: string, id: string, body: unknown, language?: string) =>
      call('POST', `/api/listing/${id}`, token, body, language),
    get: (token: string, id: string) => call('GET', `/api/listing/${id}`, token),
    list: (token: string, query = '') => call('GET', `/api/listings?${query}`, token),
    publish: (token: string, id: string, body: unknown = {}) =>
      call('POST', `/api/listing/publish/${id}`, token, body),
    detail: (response: { json(): unknown }) => (response.json() as { data: ListingDetail }).data,
  };
}
