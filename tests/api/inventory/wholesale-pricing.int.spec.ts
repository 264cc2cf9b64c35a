import { randomUUID } from 'node:crypto';
import { InventoryCode } from '@domain/inventory/codes';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, caller, data, gridParams, refusal } from './inventory-api';

type Pricing = {
  id: string;
  code: string;
  name: string;
  unit_price: string;
  tiers: { min_quantity: number; unit_price: string }[];
};

describe('wholesale pricing per master code', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const call = caller(() => api);
  const url = '/api/inventory/wholesale-pricing';

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const masterCode = async (seller: TestSeller, code = `WS-${randomUUID().slice(0, 8)}`) =>
    data<{ id: string; code: string }>(
      await call('POST', '/api/inventory/master-code', seller.token, {
        code,
        name: `Kopi ${code}`,
        unit_price: 10,
      }),
    );
  const stored = (masterCodeId: string) =>
    api.database.db
      .selectFrom('master_code_wholesale_prices')
      .select(['min_quantity', 'unit_price'])
      .where('master_code_id', '=', masterCodeId)
      .orderBy('min_quantity')
      .execute();

  it('replaces the tiers of a master code, answers them lowest first, and logs the change', async () => {
    const item = await masterCode(owner);
    const saved = await call('PUT', `${url}/${item.id}`, owner.token, {
      tiers: [
        { min_quantity: 10, unit_price: '9.00' },
        { min_quantity: 50, unit_price: 8.5 },
      ],
    });
    expect(saved.json()).toMatchObject({ code: 0, msg: `Wholesale prices of ${item.code} saved` });
    expect(data<Pricing>(saved)).toMatchObject({
      id: item.id,
      code: item.code,
      unit_price: '10.00',
      tiers: [
        { min_quantity: 10, unit_price: '9.00' },
        { min_quantity: 50, unit_price: '8.50' },
      ],
    });
    expect(data<Pricing>(await call('GET', `${url}/${item.id}`, owner.token)).tiers).toHaveLength(2);

    // A second list replaces the first as a whole; an empty one removes wholesale pricing.
    await call('PUT', `${url}/${item.id}`, owner.token, {
      tiers: [{ min_quantity: 100, unit_price: '7.00' }],
    });
    expect(await stored(item.id)).toEqual([{ min_quantity: 100, unit_price: '7.00' }]);
    expect(data<Pricing>(await call('PUT', `${url}/${item.id}`, owner.token, { tiers: [] })).tiers).toEqual(
      [],
    );
    expect(await stored(item.id)).toEqual([]);

    const log = await activities(api, owner.tenantId, item.id);
    expect(log.filter((row) => row.action === 'master_code.wholesale_prices_changed')).toHaveLength(3);
    expect(log.at(-1)).toMatchObject({
      user_id: owner.userId,
      detail: { from: [{ min_quantity: 100, unit_price: '7.00' }], to: [] },
    });
  });

  it('answers every bad tier at once in the house shape and changes nothing', async () => {
    const item = await masterCode(owner);
    await call('PUT', `${url}/${item.id}`, owner.token, { tiers: [{ min_quantity: 5, unit_price: '9.50' }] });
    const bad = await call('PUT', `${url}/${item.id}`, owner.token, {
      tiers: [
        { min_quantity: 10, unit_price: '9.00' },
        { min_quantity: 10, unit_price: '-1' },
        { min_quantity: 5, unit_price: '8.00' },
        { min_quantity: 0, unit_price: '7.00' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const answer = bad.json() as { code: number; msg: string; errors: { path: string; message: string }[] };
    expect([InventoryCode.quantityInvalid, InventoryCode.amountInvalid]).toContain(answer.code);
    expect(answer.errors).toEqual(
      expect.arrayContaining([
        {
          path: 'body/tiers/1/unit_price',
          message: 'The wholesale unit price must be more than 0, with at most 2 decimals.',
        },
        {
          path: 'body/tiers/1/min_quantity',
          message: 'Another tier already starts at this minimum quantity.',
        },
        {
          path: 'body/tiers/2/min_quantity',
          message: 'Minimum quantities must go up from one tier to the next.',
        },
        {
          path: 'body/tiers/3/min_quantity',
          message: 'The minimum quantity must be a whole number from 1 to 1000000000.',
        },
      ]),
    );
    expect(answer.errors).toHaveLength(4);
    expect(await stored(item.id)).toEqual([{ min_quantity: 5, unit_price: '9.50' }]);

    const translated = await call(
      'PUT',
      `${url}/${item.id}`,
      owner.token,
      { tiers: [{ min_quantity: 3, unit_price: 0 }] },
      'zh-cn',
    );
    expect(refusal(translated)).toEqual({
      status: 400,
      code: InventoryCode.amountInvalid,
      msg: '批发单价必须大于 0，最多 2 位小数。',
    });
    expect(refusal(await call('PUT', `${url}/${item.id}`, owner.token, { tiers: 'many' }))).toMatchObject({
      status: 400,
      code: InventoryCode.quantityInvalid,
    });
  });

  it("lists master codes with their tiers, searched as the master code grid; another account's are missing", async () => {
    const code = `GRID-${randomUUID().slice(0, 6)}`;
    const item = await masterCode(owner, code);
    data(
      await call('PUT', `${url}/${item.id}`, owner.token, {
        tiers: [
          { min_quantity: 12, unit_price: '9.00' },
          { min_quantity: 24, unit_price: '8.00' },
        ],
      }),
    );
    const page = data<{ rows: Pricing[]; lastRow: number }>(
      await call('GET', `${url}?${gridParams({ startRow: 0, endRow: 50, search: code })}`, owner.token),
    );
    expect(page.lastRow).toBe(1);
    expect(page.rows[0]).toMatchObject({
      id: item.id,
      tiers: [
        { min_quantity: 12, unit_price: '9.00' },
        { min_quantity: 24, unit_price: '8.00' },
      ],
    });

    const theirs = data<{ rows: Pricing[] }>(
      await call('GET', `${url}?${gridParams({ startRow: 0, endRow: 50, search: code })}`, other.token),
    );
    expect(theirs.rows).toEqual([]);
    expect((await call('GET', `${url}/${item.id}`, other.token)).statusCode).toBe(404);
    expect(
      (await call('PUT', `${url}/${item.id}`, other.token, { tiers: [{ min_quantity: 1, unit_price: 1 }] }))
        .statusCode,
    ).toBe(404);
    expect(await stored(item.id)).toHaveLength(2);
    expect((await call('GET', `${url}/not-an-id`, owner.token)).statusCode).toBe(404);
  });

  it('is written with inventory-master-code; the POS wholesale key reads it', async () => {
    const item = await masterCode(owner);
    const cashier = await createSubUser(api, owner.tenantId, ['pos-wholesale-price']);
    const outsider = await createSubUser(api, owner.tenantId, ['inventory-stock-adjustment']);
    const clerk = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    const body = { tiers: [{ min_quantity: 6, unit_price: '9.00' }] };

    expect((await call('GET', url, outsider.token)).statusCode).toBe(403);
    expect((await call('GET', `${url}/${item.id}`, outsider.token)).statusCode).toBe(403);
    expect((await call('PUT', `${url}/${item.id}`, outsider.token, body)).statusCode).toBe(403);
    expect((await call('PUT', `${url}/${item.id}`, cashier.token, body)).statusCode).toBe(403);
    expect(await stored(item.id)).toEqual([]);

    expect(data<Pricing>(await call('PUT', `${url}/${item.id}`, clerk.token, body)).tiers).toHaveLength(1);
    expect(data<Pricing>(await call('GET', `${url}/${item.id}`, cashier.token)).tiers).toEqual([
      { min_quantity: 6, unit_price: '9.00' },
    ]);
    expect((await call('GET', url, cashier.token)).statusCode).toBe(200);
    expect((await call('GET', url, '')).statusCode).toBe(401);
  });
});
