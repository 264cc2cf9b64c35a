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
import { activities, caller, data, refusal } from './inventory-api';

type Item = { component_id: string; code: string; name: string; status: string; quantity: number };
type Combo = { id: string; code: string; type: string; items: Item[] };

describe('combos', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const call = caller(() => api);
  let cup: { id: string; code: string };
  let lid: { id: string; code: string };
  let straw: { id: string; code: string };

  let seq = 0;
  const code = (prefix: string) => {
    seq += 1;
    return `${prefix}-${seq}`;
  };
  const masterCode = async (seller: TestSeller, type: 'standard' | 'combo' = 'standard') =>
    data<{ id: string; code: string }>(
      await call('POST', '/api/inventory/master-code', seller.token, {
        code: code(type),
        name: `A ${type}`,
        type,
      }),
    );
  const itemsOf = async (comboId: string) =>
    api.database.db
      .selectFrom('combo_items')
      .select(['component_id', 'quantity'])
      .where('combo_id', '=', comboId)
      .orderBy('position')
      .execute();

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    cup = await masterCode(owner);
    lid = await masterCode(owner);
    straw = await masterCode(owner);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('creates a combo with its items and reads them back in order', async () => {
    const created = await call('POST', '/api/inventory/combo', owner.token, {
      code: 'SET-CUP',
      name: 'Cup set',
      unit_price: 9.9,
      items: [
        { component_id: lid.id, quantity: 2 },
        { component_id: cup.id.toUpperCase(), quantity: 1 },
      ],
    });
    expect(created.json()).toMatchObject({ code: 0, msg: 'Combo created' });
    const combo = data<Combo & { unit_price: string; initial_quantity: number }>(created);
    expect(combo).toMatchObject({ code: 'SET-CUP', type: 'combo', unit_price: '9.90', initial_quantity: 0 });
    expect(combo.items).toEqual([
      { component_id: lid.id, code: lid.code, name: 'A standard', status: 'active', quantity: 2 },
      { component_id: cup.id, code: cup.code, name: 'A standard', status: 'active', quantity: 1 },
    ]);
    expect(data<Item[]>(await call('GET', `/api/inventory/combo/${combo.id}/items`, owner.token))).toEqual(
      combo.items,
    );
    // The master code view shows the same items.
    expect(
      data<Combo>(await call('GET', `/api/inventory/master-code/${combo.id}`, owner.token)).items,
    ).toEqual(combo.items);
    const log = await activities(api, owner.tenantId, combo.id);
    expect(log[0]).toMatchObject({ action: 'master_code.created' });
    expect(log[0]!.detail).toMatchObject({
      type: 'combo',
      items: [
        { component_id: lid.id, quantity: 2 },
        { component_id: cup.id, quantity: 1 },
      ],
    });
  });

  it("replaces a combo's items and logs the change", async () => {
    const combo = await masterCode(owner, 'combo');
    expect(data<Item[]>(await call('GET', `/api/inventory/combo/${combo.id}/items`, owner.token))).toEqual(
      [],
    );
    const saved = await call('PUT', `/api/inventory/combo/${combo.id}/items`, owner.token, {
      items: [
        { component_id: straw.id, quantity: 10 },
        { component_id: cup.id, quantity: 1 },
      ],
    });
    expect(saved.json()).toMatchObject({ code: 0, msg: 'Combo items saved' });
    expect(data<Item[]>(saved).map((item) => [item.code, item.quantity])).toEqual([
      [straw.code, 10],
      [cup.code, 1],
    ]);
    const again = data<Item[]>(
      await call('PUT', `/api/inventory/combo/${combo.id}/items`, owner.token, {
        items: [{ component_id: lid.id, quantity: 3 }],
      }),
    );
    expect(again.map((item) => item.code)).toEqual([lid.code]);
    expect((await activities(api, owner.tenantId, combo.id)).map((row) => row.action)).toEqual([
      'master_code.created',
      'combo.items_replaced',
      'combo.items_replaced',
    ]);
  });

  describe('refuses a bad item list and changes nothing', () => {
    let combo: { id: string; code: string };
    let inner: { id: string; code: string };

    beforeAll(async () => {
      combo = await masterCode(owner, 'combo');
      inner = await masterCode(owner, 'combo');
      data(
        await call('PUT', `/api/inventory/combo/${inner.id}/items`, owner.token, {
          items: [{ component_id: cup.id, quantity: 1 }],
        }),
      );
      data(
        await call('PUT', `/api/inventory/combo/${combo.id}/items`, owner.token, {
          items: [{ component_id: lid.id, quantity: 1 }],
        }),
      );
    });

    const put = (items: unknown, id = combo.id, language?: string) =>
      call('PUT', `/api/inventory/combo/${id}/items`, owner.token, { items }, language);

    it('a combo containing itself', async () => {
      const response = await put([
        { component_id: cup.id, quantity: 1 },
        { component_id: combo.id, quantity: 1 },
      ]);
      expect(refusal(response)).toEqual({
        status: 400,
        code: InventoryCode.comboContainsItself,
        msg: 'Item 2: a combo cannot contain itself.',
      });
      expect(await itemsOf(combo.id)).toEqual([{ component_id: lid.id, quantity: 1 }]);
    });

    it('another combo as a component, which is how every cycle would start', async () => {
      // inner holds cup; putting combo into inner, then inner into combo, would make a cycle: neither step is allowed.
      expect(refusal(await put([{ component_id: inner.id, quantity: 1 }]))).toEqual({
        status: 400,
        code: InventoryCode.comboInCombo,
        msg: `Item 1: ${inner.code} is a combo. A combo can contain only standard master codes, never another combo.`,
      });
      expect(refusal(await put([{ component_id: combo.id, quantity: 1 }], inner.id))).toMatchObject({
        status: 400,
        code: InventoryCode.comboInCombo,
      });
      expect(await itemsOf(combo.id)).toEqual([{ component_id: lid.id, quantity: 1 }]);
      expect(await itemsOf(inner.id)).toEqual([{ component_id: cup.id, quantity: 1 }]);
      // And the database refuses a cycle written around the API: a row with the combo as its own component.
      await expect(
        api.database.db
          .insertInto('combo_items')
          .values({
            tenant_id: owner.tenantId,
            combo_id: combo.id,
            component_id: combo.id,
            quantity: 1,
            position: 9,
          })
          .execute(),
      ).rejects.toThrow(/check constraint/);
    });

    it("another account's master code, or one that does not exist", async () => {
      const theirs = await masterCode(other);
      for (const id of [theirs.id, randomUUID(), 'not-a-uuid']) {
        expect(
          refusal(
            await put([
              { component_id: cup.id, quantity: 1 },
              { component_id: id, quantity: 1 },
            ]),
          ),
        ).toEqual({
          status: 400,
          code: InventoryCode.componentNotFound,
          msg: 'Item 2: the master code does not exist.',
        });
      }
      expect(await itemsOf(combo.id)).toEqual([{ component_id: lid.id, quantity: 1 }]);
    });

    it.each([
      ['zero', 0],
      ['negative', -2],
      ['fractional', 1.5],
      ['non-numeric', 'two'],
      ['missing', undefined],
    ])('a %s quantity', async (_what, quantity) => {
      expect(refusal(await put([{ component_id: cup.id, quantity }]))).toEqual({
        status: 400,
        code: InventoryCode.quantityInvalid,
        msg: 'The quantity of a combo item must be a whole number greater than 0.',
      });
      expect(await itemsOf(combo.id)).toEqual([{ component_id: lid.id, quantity: 1 }]);
    });

    it('an empty list, a repeated component, or an unknown field', async () => {
      expect(refusal(await put([]))).toMatchObject({ status: 400, code: InventoryCode.comboItemsRequired });
      expect(
        refusal(
          await put([
            { component_id: cup.id, quantity: 1 },
            { component_id: cup.id.toUpperCase(), quantity: 2 },
          ]),
        ),
      ).toMatchObject({ status: 400, code: InventoryCode.componentRepeated });
      expect(refusal(await put([{ component_id: cup.id, quantity: 1, price: 3 }]))).toMatchObject({
        status: 400,
      });
      expect(await itemsOf(combo.id)).toEqual([{ component_id: lid.id, quantity: 1 }]);
    });

    it("in the caller's language", async () => {
      expect(refusal(await put([{ component_id: combo.id, quantity: 1 }], combo.id, 'zh-cn'))).toEqual({
        status: 400,
        code: InventoryCode.comboContainsItself,
        msg: '第 1 项：组合不能包含自身。',
      });
    });

    it('a new combo whose items are wrong is not created at all', async () => {
      const comboCode = code('NEVER');
      const response = await call('POST', '/api/inventory/combo', owner.token, {
        code: comboCode,
        name: 'Never',
        items: [{ component_id: inner.id, quantity: 1 }],
      });
      expect(refusal(response)).toMatchObject({ status: 400, code: InventoryCode.comboInCombo });
      const row = await api.database.db
        .selectFrom('master_codes')
        .select('id')
        .where('code', '=', comboCode)
        .executeTakeFirst();
      expect(row).toBeUndefined();
    });
  });

  it('treats a standard master code as no combo, and a missing or foreign one as missing', async () => {
    expect(refusal(await call('GET', `/api/inventory/combo/${cup.id}/items`, owner.token))).toEqual({
      status: 409,
      code: InventoryCode.notACombo,
      msg: 'This master code is not a combo.',
    });
    const combo = await masterCode(owner, 'combo');
    const missing = await call('GET', `/api/inventory/combo/${randomUUID()}/items`, other.token);
    expect(missing.statusCode).toBe(404);
    for (const response of [
      await call('GET', `/api/inventory/combo/${combo.id}/items`, other.token),
      await call('PUT', `/api/inventory/combo/${combo.id}/items`, other.token, {
        items: [{ component_id: cup.id, quantity: 1 }],
      }),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
  });

  it('lists combos with their items, searchable by a component code', async () => {
    const seller = await createSeller(api, { packageId: 'growth' });
    const [a, b] = [await masterCode(seller), await masterCode(seller)];
    await masterCode(seller); // a standard master code is no combo
    for (const [comboCode, items] of [
      ['GIFT-1', [{ component_id: a.id, quantity: 1 }]],
      [
        'GIFT-2',
        [
          { component_id: a.id, quantity: 2 },
          { component_id: b.id, quantity: 1 },
        ],
      ],
      ['GIFT-3', [{ component_id: b.id, quantity: 5 }]],
    ] as const) {
      data(
        await call('POST', '/api/inventory/combo', seller.token, { code: comboCode, name: comboCode, items }),
      );
    }
    const grid = async (query: string) =>
      data<{ rows: Combo[]; lastRow: number }>(
        await call('GET', `/api/inventory/combo?${query}`, seller.token),
      );
    const sorted = `sortModel=${encodeURIComponent(JSON.stringify([{ colId: 'code', sort: 'asc' }]))}`;
    const all = await grid(sorted);
    expect(all.lastRow).toBe(3);
    expect(
      all.rows.map((row) => [row.code, row.items.map((item) => `${item.code}x${item.quantity}`)]),
    ).toEqual([
      ['GIFT-1', [`${a.code}x1`]],
      ['GIFT-2', [`${a.code}x2`, `${b.code}x1`]],
      ['GIFT-3', [`${b.code}x5`]],
    ]);
    expect(
      (await grid(`${sorted}&search=${encodeURIComponent(b.code)}`)).rows.map((row) => row.code),
    ).toEqual(['GIFT-2', 'GIFT-3']);
    expect((await grid(`${sorted}&startRow=1&endRow=2`)).rows.map((row) => row.code)).toEqual(['GIFT-2']);
  });

  it('needs the combo list permission', async () => {
    const combo = await masterCode(owner, 'combo');
    const outsider = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    const packer = await createSubUser(api, owner.tenantId, ['inventory-combo-list']);
    for (const [method, path, body] of [
      ['GET', '/api/inventory/combo', undefined],
      [
        'POST',
        '/api/inventory/combo',
        { code: code('X'), name: 'X', items: [{ component_id: cup.id, quantity: 1 }] },
      ],
      ['GET', `/api/inventory/combo/${combo.id}/items`, undefined],
      ['PUT', `/api/inventory/combo/${combo.id}/items`, { items: [{ component_id: cup.id, quantity: 1 }] }],
    ] as const) {
      expect((await call(method, path, outsider.token, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    expect(
      data<Item[]>(
        await call('PUT', `/api/inventory/combo/${combo.id}/items`, packer.token, {
          items: [{ component_id: cup.id, quantity: 4 }],
        }),
      ),
    ).toMatchObject([{ component_id: cup.id, quantity: 4 }]);
  });
});
