import { InventoryCode } from '@domain/inventory/codes';
import { ReturnCode } from '@domain/returns/codes';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import bwipjs from 'bwip-js/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller, data, refusal } from './inventory-api';

type Uploaded = { id: string; content_type: string; bytes: number };
type MasterCode = { id: string; image_id: string | null; image_url: string | null };

/** The smallest GIF there is: one transparent pixel. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

describe("master codes' images stored by the app", () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  let png: Buffer;
  const call = caller(() => api);
  const images = '/api/inventory/master-code/images';
  const url = '/api/inventory/master-code';

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    png = await bwipjs.toBuffer({ bcid: 'qrcode', text: 'kopi o', scale: 3 });
  });
  afterAll(async () => {
    await api?.close();
  });

  const upload = (payload: Buffer, type = 'image/png', token = owner.token) =>
    api.app.inject({
      method: 'POST',
      url: images,
      headers: { ...bearer(token), 'content-type': type },
      payload,
    });
  const serve = (id: string, token = owner.token) =>
    api.app.inject({ method: 'GET', url: `${images}/${id}`, headers: bearer(token) });
  let seq = 0;
  const create = (body: Record<string, unknown>, token = owner.token) => {
    seq += 1;
    return call('POST', url, token, { code: `IMG-${seq}-${Date.now()}`, name: 'Kopi', ...body });
  };

  it('stores an image and serves the same bytes as the type they are, with nosniff', async () => {
    const image = data<Uploaded>(await upload(png));
    expect(image).toMatchObject({ content_type: 'image/png', bytes: png.length });
    const served = await serve(image.id);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(png)).toBe(true);

    // The type is read from the bytes: a GIF sent as "application/octet-stream" is served as a GIF.
    const gif = data<Uploaded>(await upload(GIF, 'application/octet-stream'));
    expect(gif.content_type).toBe('image/gif');
    const servedGif = await serve(gif.id);
    expect(servedGif.headers['content-type']).toBe('image/gif');
    expect(servedGif.rawPayload.equals(GIF)).toBe(true);
  });

  it('refuses what is not an image whatever it claims, and images over 2 MB', async () => {
    const count = async () =>
      (
        await api.database.db
          .selectFrom('uploaded_images')
          .select('id')
          .where('tenant_id', '=', owner.tenantId)
          .execute()
      ).length;
    const before = await count();
    const script = Buffer.from('<script>alert(document.cookie)</script>');
    expect(refusal(await upload(script, 'image/png'))).toEqual({
      status: 400,
      code: ReturnCode.imageInvalid,
      msg: 'The image must be a PNG, JPEG, WebP or GIF file.',
    });
    expect(refusal(await upload(Buffer.from('%PDF-1.7 not a picture'), 'image/jpeg'))).toMatchObject({
      status: 400,
      code: ReturnCode.imageInvalid,
    });
    const jpegHeader = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
    expect(
      refusal(await upload(Buffer.concat([jpegHeader, Buffer.alloc(2 * 1024 * 1024)]), 'image/jpeg')),
    ).toEqual({ status: 400, code: ReturnCode.imageTooLarge, msg: 'An image may be at most 2 MB.' });
    expect((await upload(script, 'text/html')).statusCode).toBe(415);
    expect(await count()).toBe(before);
  });

  it("keeps each account's images to itself, and a return's attachments out of master codes", async () => {
    const image = data<Uploaded>(await upload(png));
    expect((await serve(image.id, other.token)).statusCode).toBe(404);
    expect((await serve('not-a-uuid')).statusCode).toBe(404);
    // Another account cannot name it on its master code either.
    expect(refusal(await create({ image_id: image.id }, other.token))).toMatchObject({
      status: 400,
      code: ReturnCode.imageNotFound,
    });

    const attachment = data<Uploaded>(
      await api.app.inject({
        method: 'POST',
        url: '/api/orders/returns/images',
        headers: { ...bearer(owner.token), 'content-type': 'image/png' },
        payload: png,
      }),
    );
    expect((await serve(attachment.id)).statusCode).toBe(404);
    expect(refusal(await create({ image_id: attachment.id }))).toMatchObject({
      status: 400,
      code: ReturnCode.imageNotFound,
    });
    // An empty id names nothing: refused, never stored (Schemathesis found a 500 here).
    expect(refusal(await create({ image_id: '' }))).toMatchObject({
      status: 400,
      code: ReturnCode.imageNotFound,
    });
  });

  it('names the uploaded image on a master code, or a URL, one at a time', async () => {
    const image = data<Uploaded>(await upload(png));
    const item = data<MasterCode>(await create({ image_id: image.id }));
    expect(item).toMatchObject({ image_id: image.id, image_url: null });

    // A URL replaces the upload, and an upload the URL.
    const withUrl = data<MasterCode>(
      await call('PUT', `${url}/${item.id}`, owner.token, { image_url: 'https://cdn.kedai.test/kopi.png' }),
    );
    expect(withUrl).toMatchObject({ image_id: null, image_url: 'https://cdn.kedai.test/kopi.png' });
    const again = data<MasterCode>(
      await call('PUT', `${url}/${item.id}`, owner.token, { image_id: image.id }),
    );
    expect(again).toMatchObject({ image_id: image.id, image_url: null });

    expect(
      refusal(
        await call('PUT', `${url}/${item.id}`, owner.token, {
          image_id: image.id,
          image_url: 'https://cdn.kedai.test/kopi.png',
        }),
      ),
    ).toMatchObject({ status: 400, code: InventoryCode.imageUrlInvalid });
    expect(
      refusal(await call('PUT', `${url}/${item.id}`, owner.token, { image_url: 'javascript:alert(1)' })),
    ).toMatchObject({ status: 400, code: InventoryCode.imageUrlInvalid });
    const cleared = data<MasterCode>(await call('PUT', `${url}/${item.id}`, owner.token, { image_id: null }));
    expect(cleared).toMatchObject({ image_id: null, image_url: null });
  });

  it('uploads with inventory-master-code; the pickers of other screens see the image', async () => {
    const image = data<Uploaded>(await upload(png));
    const picker = await createSubUser(api, owner.tenantId, ['inventory-stock-adjustment']);
    const outsider = await createSubUser(api, owner.tenantId, ['sales-index']);
    expect((await upload(png, 'image/png', picker.token)).statusCode).toBe(403);
    expect((await serve(image.id, picker.token)).statusCode).toBe(200);
    expect((await serve(image.id, outsider.token)).statusCode).toBe(403);
    expect((await serve(image.id, '')).statusCode).toBe(401);
  });
});
