import { randomUUID } from 'node:crypto';
import { recordChannelSkus } from '@commands/channels/channel-skus';
import { InventoryCode } from '@domain/inventory/codes';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, caller, createSmallPackage, data, gridParams, refusal } from './inventory-api';

type MasterCode = {
  id: string;
  code: string;
  name: string;
  type: string;
  status: string;
  category: { id: string; name: string } | null;
  brand: { id: string; name: string } | null;
  unit: { id: string; name: string } | null;
  unit_price: string;
  cost: string;
  weight_kg: string;
  seller_sku: string;
  upc: string;
  einvoice_classification: string | null;
  soft_threshold: number;
  initial_quantity: number;
  bound: boolean;
  prices: { currency: string; unit_price: string }[];
  items: unknown[];
  locations: unknown[];
  updated_at: string;
};

describe('master codes', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  let category: string;
  let brand: string;
  let unit: string;
  const call = caller(() => api);
  const url = '/api/inventory/master-code';

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    category = data<{ id: string }>(
      await call('POST', '/api/inventory/category', owner.token, { name: 'Beverages' }),
    ).id;
    brand = data<{ id: string }>(
      await call('POST', '/api/inventory/brand', owner.token, { name: 'Kopi Kita' }),
    ).id;
    unit = data<{ id: string }>(await call('POST', '/api/inventory/unit', owner.token, { name: 'Box' })).id;
  });
  afterAll(async () => {
    await api?.close();
  });

  let seq = 0;
  const nextCode = (prefix = 'MC') => {
    seq += 1;
    return `${prefix}-${seq}-${randomUUID().slice(0, 4)}`;
  };
  const create = async (seller: TestSeller, body: Record<string, unknown> = {}) =>
    data<MasterCode>(await call('POST', url, seller.token, { code: nextCode(), name: 'Item', ...body }));

  const countOf = async (tenantId: string) =>
    Number(
      (
        await api.database.db
          .selectFrom('master_codes')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('tenant_id', '=', tenantId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('creates a master code with every field, reads it back in full, and logs it', async () => {
    const created = await call('POST', url, owner.token, {
      code: '  KOPI-250G ',
      name: ' Kopi O 250 g ',
      type: 'standard',
      category_id: category,
      image_url: 'https://cdn.kedai.test/kopi.png',
      unit_price: 12.5,
      cost: '7.2',
      weight_kg: 0.25,
      seller_sku: 'SKU-KOPI-250',
      upc: '9556001234567',
      brand_id: brand,
      einvoice_classification: '022',
      remark: 'Roasted weekly',
      status: 'active',
      soft_threshold: 10,
      initial_quantity: 40,
      pos_app_name: 'Kopi O',
      unit_id: unit,
      prices: [
        { currency: 'SGD', unit_price: '4.90' },
        { currency: 'MYR', unit_price: 12.5 },
      ],
    });
    expect(created.json()).toMatchObject({ code: 0, msg: 'Master code created' });
    const item = data<MasterCode>(created);
    expect(item).toMatchObject({
      code: 'KOPI-250G',
      name: 'Kopi O 250 g',
      type: 'standard',
      status: 'active',
      category: { id: category, name: 'Beverages' },
      brand: { id: brand, name: 'Kopi Kita' },
      unit: { id: unit, name: 'Box' },
      image_url: 'https://cdn.kedai.test/kopi.png',
      unit_price: '12.50',
      cost: '7.20',
      weight_kg: '0.250',
      seller_sku: 'SKU-KOPI-250',
      upc: '9556001234567',
      einvoice_classification: '022',
      remark: 'Roasted weekly',
      soft_threshold: 10,
      initial_quantity: 40,
      pos_app_name: 'Kopi O',
      bound: false,
      prices: [
        { currency: 'MYR', unit_price: '12.50' },
        { currency: 'SGD', unit_price: '4.90' },
      ],
      items: [],
      locations: [],
    });

    expect(data(await call('GET', `${url}/${item.id}`, owner.token))).toEqual(item);
    const log = await activities(api, owner.tenantId, item.id);
    expect(log).toMatchObject([
      { action: 'master_code.created', subject_type: 'master_code', user_id: owner.userId },
    ]);
    expect(log[0]!.detail).toMatchObject({ code: 'KOPI-250G', initial_quantity: 40 });
  });

  it('fills defaults for what a minimal master code leaves out', async () => {
    const item = await create(owner, { name: 'Plain' });
    expect(item).toMatchObject({
      type: 'standard',
      status: 'active',
      category: null,
      brand: null,
      unit: null,
      unit_price: '0.00',
      cost: '0.00',
      weight_kg: '0.000',
      einvoice_classification: null,
      soft_threshold: 0,
      initial_quantity: 0,
      prices: [],
    });
  });

  it('refuses a code already used in the account, whatever its case, and allows it in another account', async () => {
    const code = nextCode('DUP');
    await create(owner, { code });
    const before = await countOf(owner.tenantId);
    const duplicate = await call('POST', url, owner.token, { code: code.toLowerCase(), name: 'Again' });
    expect(refusal(duplicate)).toEqual({
      status: 409,
      code: InventoryCode.codeTaken,
      msg: `The master code ${code.toLowerCase()} already exists.`,
    });
    expect(await countOf(owner.tenantId)).toBe(before);
    // In Chinese too.
    const zh = await call('POST', url, owner.token, { code, name: 'Again' }, 'zh-cn');
    expect(refusal(zh)).toEqual({
      status: 409,
      code: InventoryCode.codeTaken,
      msg: `主编码 ${code} 已存在。`,
    });
    // Another seller's codes are their own business.
    expect((await create(other, { code })).code).toBe(code);
  });

  it.each([
    ['no code', { code: undefined }, InventoryCode.codeRequired, 'Please enter the master code.'],
    ['a blank code', { code: '   ' }, InventoryCode.codeRequired, 'Please enter the master code.'],
    ['a code in another script', { code: 'กาแฟ-1' }, InventoryCode.codeRequired, undefined],
    ['a code too long', { code: 'X'.repeat(65) }, InventoryCode.textInvalid, undefined],
    ['no name', { name: '' }, InventoryCode.nameRequired, 'Please enter the name.'],
    ['an unknown type', { type: 'bundle' }, InventoryCode.typeInvalid, 'The type must be standard or combo.'],
    ['a negative unit price', { unit_price: -1 }, InventoryCode.amountInvalid, undefined],
    ['a non-numeric unit price', { unit_price: 'abc' }, InventoryCode.amountInvalid, undefined],
    ['a unit price with 3 decimals', { unit_price: 1.234 }, InventoryCode.amountInvalid, undefined],
    ['a unit price too large', { unit_price: '1000000000000' }, InventoryCode.amountInvalid, undefined],
    ['a negative cost', { cost: '-0.01' }, InventoryCode.amountInvalid, undefined],
    ['a weight with 4 decimals', { weight_kg: 0.1234 }, InventoryCode.amountInvalid, undefined],
    [
      'a zero list price',
      { prices: [{ currency: 'MYR', unit_price: 0 }] },
      InventoryCode.amountInvalid,
      undefined,
    ],
    [
      'a negative list price',
      { prices: [{ currency: 'MYR', unit_price: -5 }] },
      InventoryCode.amountInvalid,
      undefined,
    ],
    [
      'a non-numeric list price',
      { prices: [{ currency: 'MYR', unit_price: 'ten' }] },
      InventoryCode.amountInvalid,
      undefined,
    ],
    [
      'a currency outside the five',
      { prices: [{ currency: 'USD', unit_price: 1 }] },
      InventoryCode.currencyInvalid,
      'The currency must be one of MYR, SGD, HKD, TWD or PHP.',
    ],
    [
      'a currency twice',
      {
        prices: [
          { currency: 'MYR', unit_price: 1 },
          { currency: 'MYR', unit_price: 2 },
        ],
      },
      InventoryCode.currencyRepeated,
      'Each currency may appear only once in the price list.',
    ],
    [
      'a classification past 045',
      { einvoice_classification: '046' },
      InventoryCode.classificationInvalid,
      'The e-invoice classification must be one of the codes 001 to 045.',
    ],
    [
      'classification 000',
      { einvoice_classification: '000' },
      InventoryCode.classificationInvalid,
      undefined,
    ],
    [
      'classification as a number',
      { einvoice_classification: 22 },
      InventoryCode.classificationInvalid,
      undefined,
    ],
    ['a fractional soft threshold', { soft_threshold: 1.5 }, InventoryCode.quantityInvalid, undefined],
    ['a negative initial quantity', { initial_quantity: -1 }, InventoryCode.quantityInvalid, undefined],
    ['an initial quantity as text', { initial_quantity: '5' }, InventoryCode.quantityInvalid, undefined],
    [
      'a combo with an initial quantity',
      { type: 'combo', initial_quantity: 5 },
      InventoryCode.comboHasNoStock,
      'A combo has no stock of its own, so it cannot have an initial quantity.',
    ],
    ['an ftp image', { image_url: 'ftp://files.test/a.png' }, InventoryCode.imageUrlInvalid, undefined],
    ['a UPC with letters', { upc: '95A' }, InventoryCode.upcInvalid, undefined],
    ['an unknown status', { status: 'deleted' }, InventoryCode.statusInvalid, undefined],
    ['an unknown field', { colour: 'red' }, 400, undefined],
  ] as const)('refuses %s with a 400 and changes nothing', async (_what, change, code, msg) => {
    const before = await countOf(owner.tenantId);
    const response = await call('POST', url, owner.token, { code: nextCode(), name: 'Item', ...change });
    const answer = refusal(response);
    expect(answer.status, response.body).toBe(400);
    expect(answer.code).toBe(code);
    if (msg) expect(answer.msg).toBe(msg);
    expect(await countOf(owner.tenantId)).toBe(before);
  });

  it('accepts the first and last classification codes', async () => {
    expect((await create(owner, { einvoice_classification: '001' })).einvoice_classification).toBe('001');
    expect((await create(owner, { einvoice_classification: '045' })).einvoice_classification).toBe('045');
  });

  it("refuses a category, brand or unit that does not exist or is another account's", async () => {
    const theirs = data<{ id: string }>(
      await call('POST', '/api/inventory/category', other.token, { name: 'Theirs' }),
    );
    const theirBrand = data<{ id: string }>(
      await call('POST', '/api/inventory/brand', other.token, { name: 'Theirs' }),
    );
    const theirUnit = data<{ id: string }>(
      await call('POST', '/api/inventory/unit', other.token, { name: 'Theirs' }),
    );
    const cases = [
      [{ category_id: randomUUID() }, InventoryCode.categoryNotFound, 'The chosen category does not exist.'],
      [{ category_id: 'not-a-uuid' }, InventoryCode.categoryNotFound, 'The chosen category does not exist.'],
      [{ category_id: theirs.id }, InventoryCode.categoryNotFound, 'The chosen category does not exist.'],
      [{ brand_id: theirBrand.id }, InventoryCode.brandNotFound, 'The chosen brand does not exist.'],
      [{ unit_id: theirUnit.id }, InventoryCode.unitNotFound, 'The chosen unit does not exist.'],
    ] as const;
    const before = await countOf(owner.tenantId);
    for (const [change, code, msg] of cases) {
      const response = await call('POST', url, owner.token, { code: nextCode(), name: 'Item', ...change });
      expect(refusal(response)).toEqual({ status: 400, code, msg });
    }
    expect(await countOf(owner.tenantId)).toBe(before);
  });

  it('edits fields, replaces the price list, and renames the code', async () => {
    const item = await create(owner, { prices: [{ currency: 'MYR', unit_price: 10 }] });
    const code = nextCode('RENAMED');
    const edited = await call('PUT', `${url}/${item.id}`, owner.token, {
      code,
      name: 'Teh Tarik',
      unit_price: '3.5',
      category_id: category,
      brand_id: null,
      type: 'standard',
      prices: [
        { currency: 'PHP', unit_price: 120 },
        { currency: 'HKD', unit_price: '20.00' },
      ],
    });
    expect(edited.json()).toMatchObject({ code: 0, msg: 'Master code updated' });
    expect(data<MasterCode>(edited)).toMatchObject({
      code,
      name: 'Teh Tarik',
      unit_price: '3.50',
      category: { id: category },
      brand: null,
      prices: [
        { currency: 'HKD', unit_price: '20.00' },
        { currency: 'PHP', unit_price: '120.00' },
      ],
    });
    // Without prices, the list stays.
    const renamed = data<MasterCode>(
      await call('PUT', `${url}/${item.id}`, owner.token, { remark: 'Less sugar' }),
    );
    expect(renamed.prices).toHaveLength(2);
    expect((await activities(api, owner.tenantId, item.id)).map((row) => row.action)).toEqual([
      'master_code.created',
      'master_code.updated',
      'master_code.updated',
    ]);
  });

  it('refuses to change the type, a bound code, a taken code, or nothing', async () => {
    const item = await create(owner);
    const taken = await create(owner);
    expect(refusal(await call('PUT', `${url}/${item.id}`, owner.token, { type: 'combo' }))).toEqual({
      status: 409,
      code: InventoryCode.typeFixed,
      msg: 'The type of a master code cannot be changed. Create a new master code of the other type instead.',
    });
    expect(
      refusal(await call('PUT', `${url}/${item.id}`, owner.token, { code: taken.code.toUpperCase() })),
    ).toEqual({
      status: 409,
      code: InventoryCode.codeTaken,
      msg: `The master code ${taken.code.toUpperCase()} already exists.`,
    });
    expect(refusal(await call('PUT', `${url}/${item.id}`, owner.token, {}))).toMatchObject({
      status: 400,
      code: InventoryCode.nothingToChange,
    });
    expect(refusal(await call('PUT', `${url}/${item.id}`, owner.token, { unit_price: -2 }))).toMatchObject({
      status: 400,
      code: InventoryCode.amountInvalid,
    });
    // Once a store's SKU is linked to it (here by its code), the code stays.
    await recordChannelSkus(
      { db: api.database.db, store: api.store },
      {
        tenantId: owner.tenantId,
        storeId: 'a-store',
        itemId: '1',
        itemName: 'Listed item',
        models: [{ sellerSku: item.code, price: '1.00', stock: 0 }],
      },
    );
    expect(refusal(await call('PUT', `${url}/${item.id}`, owner.token, { code: nextCode() }))).toEqual({
      status: 409,
      code: InventoryCode.codeBound,
      msg: 'This master code is bound to listings, so its code cannot be changed.',
    });
    // Other fields of a bound master code may change, and the same code is no change of code.
    expect(
      data<MasterCode>(
        await call('PUT', `${url}/${item.id}`, owner.token, { code: item.code, name: 'Still bound' }),
      ),
    ).toMatchObject({ code: item.code, name: 'Still bound', bound: true });
    const after = data<MasterCode>(await call('GET', `${url}/${item.id}`, owner.token));
    expect(after.type).toBe('standard');
  });

  it('deactivates and activates a master code, logging each change', async () => {
    const item = await create(owner);
    const off = await call('POST', `${url}/${item.id}/deactivate`, owner.token);
    expect(off.json()).toMatchObject({
      code: 0,
      msg: 'Master code deactivated',
      data: { status: 'inactive' },
    });
    // Twice is harmless and logs nothing more.
    expect(data<MasterCode>(await call('POST', `${url}/${item.id}/deactivate`, owner.token)).status).toBe(
      'inactive',
    );
    const on = await call('POST', `${url}/${item.id}/activate`, owner.token);
    expect(on.json()).toMatchObject({ code: 0, msg: 'Master code activated', data: { status: 'active' } });
    expect((await activities(api, owner.tenantId, item.id)).map((row) => row.action)).toEqual([
      'master_code.created',
      'master_code.deactivated',
      'master_code.activated',
    ]);
  });

  describe('the grid', () => {
    let seller: TestSeller;
    let drinks: string;
    let snacks: string;

    beforeAll(async () => {
      seller = await createSeller(api, { packageId: 'growth' });
      drinks = data<{ id: string }>(
        await call('POST', '/api/inventory/category', seller.token, { name: 'Drinks' }),
      ).id;
      snacks = data<{ id: string }>(
        await call('POST', '/api/inventory/category', seller.token, { name: 'Snacks' }),
      ).id;
      const acme = data<{ id: string }>(
        await call('POST', '/api/inventory/brand', seller.token, { name: 'Acme' }),
      ).id;
      for (const [code, name, extra] of [
        ['A-100', 'Apple juice', { category_id: drinks, brand_id: acme, seller_sku: 'JUICE-APPLE' }],
        ['B-200', 'Banana chips', { category_id: snacks, upc: '123456789012' }],
        ['C-300', 'Cola 330ml', { category_id: drinks, status: 'inactive' }],
        ['D-400', 'Drinks pack', { type: 'combo' }],
        ['E_500', 'Egg rolls', { category_id: snacks, brand_id: acme }],
      ] as const) {
        data(await call('POST', url, seller.token, { code, name, ...extra }));
      }
    });

    const grid = async (query: Record<string, unknown>) => {
      const params = gridParams(query);
      return data<{ rows: MasterCode[]; lastRow: number }>(
        await call('GET', `${url}?${params}`, seller.token),
      );
    };
    const codes = (page: { rows: MasterCode[] }) => page.rows.map((row) => row.code);

    it('pages and sorts in SQL', async () => {
      const first = await grid({ startRow: 0, endRow: 2, sortModel: [{ colId: 'code', sort: 'desc' }] });
      expect(first).toMatchObject({ lastRow: 5 });
      expect(codes(first)).toEqual(['E_500', 'D-400']);
      const second = await grid({ startRow: 2, endRow: 4, sortModel: [{ colId: 'code', sort: 'desc' }] });
      expect(codes(second)).toEqual(['C-300', 'B-200']);
      const byCategory = await grid({
        sortModel: [
          { colId: 'category', sort: 'asc' },
          { colId: 'name', sort: 'desc' },
        ],
      });
      expect(codes(byCategory)).toEqual(['C-300', 'A-100', 'E_500', 'B-200', 'D-400']);
      const byBrand = await grid({
        sortModel: [
          { colId: 'brand', sort: 'asc' },
          { colId: 'code', sort: 'asc' },
        ],
      });
      expect(codes(byBrand)).toEqual(['A-100', 'E_500', 'B-200', 'C-300', 'D-400']);
    });

    it('filters by text, set and date, and searches code, name, seller SKU and UPC', async () => {
      expect(codes(await grid({ filterModel: { type: { filterType: 'set', values: ['combo'] } } }))).toEqual([
        'D-400',
      ]);
      expect(
        codes(
          await grid({
            filterModel: {
              status: { filterType: 'set', values: ['active'] },
              category: { type: 'equals', filter: 'drinks' },
            },
          }),
        ),
      ).toEqual(['A-100']);
      expect(
        codes(
          await grid({
            filterModel: { name: { filterType: 'text', type: 'contains', filter: 'ch' } },
            sortModel: [{ colId: 'code', sort: 'asc' }],
          }),
        ),
      ).toEqual(['B-200']);
      // An underscore in a filter is a literal underscore, not a wildcard.
      expect(codes(await grid({ filterModel: { code: { type: 'contains', filter: '_' } } }))).toEqual([
        'E_500',
      ]);
      expect(
        codes(
          await grid({
            filterModel: { brand: { type: 'equals', filter: 'ACME' } },
            sortModel: [{ colId: 'code', sort: 'asc' }],
          }),
        ),
      ).toEqual(['A-100', 'E_500']);
      expect(codes(await grid({ search: 'juice-apple' }))).toEqual(['A-100']);
      expect(codes(await grid({ search: '4567890' }))).toEqual(['B-200']);
      expect(codes(await grid({ search: 'cola' }))).toEqual(['C-300']);
      const today = new Date().toISOString().slice(0, 10);
      expect(
        (
          await grid({
            filterModel: {
              updated_at: { filterType: 'date', type: 'equals', dateFrom: `${today} 00:00:00` },
            },
          })
        ).lastRow,
      ).toBe(5);
      expect(
        (
          await grid({
            filterModel: { updated_at: { filterType: 'date', type: 'lessThan', dateFrom: '2020-01-01' } },
          })
        ).lastRow,
      ).toBe(0);
    });

    it('refuses a column it cannot sort or filter by', async () => {
      const params = new URLSearchParams({
        sortModel: JSON.stringify([{ colId: 'cost; drop table x', sort: 'asc' }]),
      });
      expect((await call('GET', `${url}?${params}`, seller.token)).statusCode).toBe(400);
      const filter = new URLSearchParams({
        filterModel: JSON.stringify({ remark: { type: 'contains', filter: 'x' } }),
      });
      expect((await call('GET', `${url}?${filter}`, seller.token)).statusCode).toBe(400);
    });
  });

  it("keeps each account's master codes to itself: another's id answers like a missing one", async () => {
    const mine = await create(owner);
    const missing = await call('GET', `${url}/${randomUUID()}`, other.token);
    expect(missing.statusCode).toBe(404);
    for (const [method, path, body] of [
      ['GET', `${url}/${mine.id}`, undefined],
      ['PUT', `${url}/${mine.id}`, { name: 'Stolen' }],
      ['POST', `${url}/${mine.id}/deactivate`, undefined],
    ] as const) {
      const response = await call(method, path, other.token, body);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    const theirs = data<{ rows: MasterCode[] }>(await call('GET', `${url}?endRow=500`, other.token));
    expect(theirs.rows.map((row) => row.id)).not.toContain(mine.id);
    expect(data<MasterCode>(await call('GET', `${url}/${mine.id}`, owner.token)).name).toBe('Item');
  });

  it('writes with the master code permission; the inventory screens with pickers may read', async () => {
    const item = await create(owner);
    const outsider = await createSubUser(api, owner.tenantId, ['sales-index', 'listings-manage']);
    const picker = await createSubUser(api, owner.tenantId, ['inventory-stock-adjustment']);
    const clerk = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    const writes = [
      ['POST', url, { code: nextCode(), name: 'Nope' }],
      ['PUT', `${url}/${item.id}`, { name: 'Nope' }],
      ['POST', `${url}/${item.id}/activate`, undefined],
      ['POST', `${url}/${item.id}/deactivate`, undefined],
    ] as const;
    for (const [method, path, body] of [
      ['GET', url, undefined],
      ['GET', `${url}/${item.id}`, undefined],
      ...writes,
    ] as const) {
      expect((await call(method, path, outsider.token, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    // A stock clerk finds master codes in the pickers, and changes none.
    expect(data<MasterCode>(await call('GET', `${url}/${item.id}`, picker.token)).id).toBe(item.id);
    expect((await call('GET', url, picker.token)).statusCode).toBe(200);
    for (const [method, path, body] of writes) {
      expect((await call(method, path, picker.token, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    expect(data<MasterCode>(await call('GET', `${url}/${item.id}`, clerk.token)).id).toBe(item.id);
    expect((await create({ ...owner, token: clerk.token }, {})).code).toMatch(/^MC-/);
    expect((await call('GET', url, '')).statusCode).toBe(401);
  });

  describe("the package's master-code limit", () => {
    it('refuses one master code too many with a 403, combos included, and shows the count in the usage panel', async () => {
      const packageId = await createSmallPackage(api, 'inventory-mc-2', { masterCodes: 2 });
      const seller = await createSeller(api, { packageId });
      await create(seller);
      const combo = await call('POST', '/api/inventory/combo', seller.token, {
        code: nextCode('COMBO'),
        name: 'Set',
        items: [
          {
            component_id: (
              await api.database.db
                .selectFrom('master_codes')
                .select('id')
                .where('tenant_id', '=', seller.tenantId)
                .executeTakeFirstOrThrow()
            ).id,
            quantity: 2,
          },
        ],
      });
      expect(combo.statusCode, combo.body).toBe(200);
      const third = await call('POST', url, seller.token, { code: nextCode(), name: 'Third' });
      expect(refusal(third)).toEqual({
        status: 403,
        code: InventoryCode.masterCodeLimit,
        msg: 'Your package (Small inventory-mc-2) allows 2 master codes. Upgrade your package to add more.',
      });
      expect(await countOf(seller.tenantId)).toBe(2);
      const usage = data<{ masterCodes: { used: number; limit: number } }>(
        await call('GET', '/api/info/usage', seller.token),
      );
      expect(usage.masterCodes).toEqual({ used: 2, limit: 2 });
    });

    it('lets only as many parallel creations through as there are free slots', async () => {
      const packageId = await createSmallPackage(api, 'inventory-mc-3', { masterCodes: 3 });
      const seller = await createSeller(api, { packageId });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () =>
          call('POST', url, seller.token, { code: nextCode('RACE'), name: 'Race' }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 200, 200, 403, 403, 403, 403, 403]);
      expect(await countOf(seller.tenantId)).toBe(3);
    });

    it('counts nothing against an unlimited package', async () => {
      const seller = await createSeller(api, { packageId: 'enterprise' });
      await create(seller);
      const usage = data<{ masterCodes: { used: number; limit: number | null } }>(
        await call('GET', '/api/info/usage', seller.token),
      );
      expect(usage.masterCodes).toEqual({ used: 1, limit: null });
    });
  });
});
