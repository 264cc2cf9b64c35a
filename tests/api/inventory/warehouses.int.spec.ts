import { randomUUID } from 'node:crypto';
import { InventoryCode } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities, caller, createSmallPackage, data, refusal } from './inventory-api';

type Place = {
  id: string;
  kind: 'warehouse' | 'branch';
  code: string;
  name: string;
  manager: string;
  phone: string;
  address: string;
  location: string;
  is_default: boolean;
  use_address_on_receipt: boolean;
  use_phone_on_receipt: boolean;
  rack_count: number;
  master_code_count: number;
};

describe('warehouses and branches', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const call = caller(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  let seq = 0;
  const code = (prefix: string) => {
    seq += 1;
    return `${prefix}${seq}`;
  };
  const addWarehouse = async (seller: TestSeller, body: Record<string, unknown> = {}) =>
    data<Place>(
      await call('POST', '/api/inventory/warehouse', seller.token, {
        code: code('WH'),
        name: 'Store',
        ...body,
      }),
    );
  const addBranch = async (seller: TestSeller, body: Record<string, unknown> = {}) =>
    data<Place>(
      await call('POST', '/api/inventory/branch', seller.token, {
        code: code('BR'),
        name: 'Branch',
        ...body,
      }),
    );
  const defaults = async (tenantId: string) =>
    (
      await api.database.db
        .selectFrom('warehouses')
        .select('id')
        .where('tenant_id', '=', tenantId)
        .where('is_default', '=', true)
        .execute()
    ).map((row) => row.id);

  describe('the default warehouse', () => {
    let seller: TestSeller;
    beforeAll(async () => {
      seller = await createSeller(api, { packageId: 'growth' });
    });

    it('makes the first warehouse the default, and switches the default in one change', async () => {
      const created = await call('POST', '/api/inventory/warehouse', seller.token, {
        code: 'KL-01',
        name: 'Kuala Lumpur',
        manager: 'Aminah',
        phone: '+60 3-1234 5678',
        address: 'Lot 5, Jalan Ampang',
        use_address_on_receipt: true,
      });
      expect(created.json()).toMatchObject({ code: 0, msg: 'Warehouse created' });
      const first = data<Place>(created);
      expect(first).toMatchObject({
        kind: 'warehouse',
        code: 'KL-01',
        name: 'Kuala Lumpur',
        manager: 'Aminah',
        phone: '+60 3-1234 5678',
        address: 'Lot 5, Jalan Ampang',
        location: '',
        is_default: true,
        use_address_on_receipt: true,
        use_phone_on_receipt: false,
        rack_count: 0,
      });
      const second = await addWarehouse(seller, { name: 'Penang' });
      expect(second.is_default).toBe(false);
      expect(await defaults(seller.tenantId)).toEqual([first.id]);

      const switched = await call('POST', `/api/inventory/warehouse/${second.id}/default`, seller.token);
      expect(switched.json()).toMatchObject({
        code: 0,
        msg: 'Default warehouse changed',
        data: { is_default: true },
      });
      expect(await defaults(seller.tenantId)).toEqual([second.id]);

      // Through an edit too, and a new warehouse marked default takes it over.
      data(await call('PUT', `/api/inventory/warehouse/${first.id}`, seller.token, { is_default: true }));
      expect(await defaults(seller.tenantId)).toEqual([first.id]);
      const third = await addWarehouse(seller, { name: 'Johor', is_default: true });
      expect(await defaults(seller.tenantId)).toEqual([third.id]);

      const list = data<Place[]>(await call('GET', '/api/inventory/warehouse', seller.token));
      expect(list.map((place) => [place.name, place.is_default])).toEqual([
        ['Johor', true],
        ['Kuala Lumpur', false],
        ['Penang', false],
      ]);
      expect((await activities(api, seller.tenantId, second.id)).map((row) => row.action)).toEqual([
        'warehouse.created',
        'warehouse.default_set',
      ]);
    });

    it('never leaves the account without a default: unsetting or deleting it is refused', async () => {
      const [current] = await defaults(seller.tenantId);
      expect(
        refusal(
          await call('PUT', `/api/inventory/warehouse/${current}`, seller.token, { is_default: false }),
        ),
      ).toEqual({
        status: 409,
        code: InventoryCode.defaultRequired,
        msg: 'There must always be a default warehouse. Make another warehouse the default instead.',
      });
      expect(refusal(await call('DELETE', `/api/inventory/warehouse/${current}`, seller.token))).toEqual({
        status: 409,
        code: InventoryCode.defaultRequired,
        msg: 'The default warehouse cannot be deleted. Make another warehouse the default first.',
      });
      expect(await defaults(seller.tenantId)).toEqual([current]);
    });

    it('keeps one default when many switch at once', async () => {
      const places = await Promise.all([1, 2, 3, 4].map((n) => addWarehouse(seller, { name: `Race ${n}` })));
      await Promise.all(
        places.map((place) => call('POST', `/api/inventory/warehouse/${place.id}/default`, seller.token)),
      );
      const now = await defaults(seller.tenantId);
      expect(now).toHaveLength(1);
      expect(places.map((place) => place.id)).toContain(now[0]);
    });

    it('deletes the last warehouse even though it is the default', async () => {
      const lone = await createSeller(api, { packageId: 'growth' });
      const only = await addWarehouse(lone);
      expect(only.is_default).toBe(true);
      expect((await call('DELETE', `/api/inventory/warehouse/${only.id}`, lone.token)).json()).toEqual({
        code: 0,
        msg: 'Warehouse deleted',
        data: { id: only.id },
      });
    });
  });

  describe('branches', () => {
    it('adds, edits and deletes a branch with its own fields', async () => {
      const created = await call('POST', '/api/inventory/branch', owner.token, {
        code: 'BR-SS2',
        name: 'SS2 outlet',
        manager: 'Mei Ling',
        phone: '03-7877 1234',
        location: 'SS2, Petaling Jaya',
      });
      expect(created.json()).toMatchObject({
        code: 0,
        msg: 'Branch created',
        data: { kind: 'branch', location: 'SS2, Petaling Jaya', is_default: false, address: '' },
      });
      const branch = data<Place>(created);
      const edited = data<Place>(
        await call('PUT', `/api/inventory/branch/${branch.id}`, owner.token, {
          location: 'SS2/24, Petaling Jaya',
        }),
      );
      expect(edited.location).toBe('SS2/24, Petaling Jaya');
      // A branch has no default flag or address; a warehouse has no location.
      expect(
        (await call('PUT', `/api/inventory/branch/${branch.id}`, owner.token, { is_default: true }))
          .statusCode,
      ).toBe(400);
      expect(
        (
          await call('POST', '/api/inventory/warehouse', owner.token, {
            code: code('W'),
            name: 'W',
            location: 'x',
          })
        ).statusCode,
      ).toBe(400);
      // Kinds do not mix: a branch is no warehouse.
      expect((await call('GET', `/api/inventory/warehouse/${branch.id}`, owner.token)).statusCode).toBe(404);
      expect(data<Place>(await call('GET', `/api/inventory/branch/${branch.id}`, owner.token)).id).toBe(
        branch.id,
      );
      expect((await call('DELETE', `/api/inventory/branch/${branch.id}`, owner.token)).json()).toMatchObject({
        code: 0,
        msg: 'Branch deleted',
      });
    });

    it('refuses one branch more than the package allows, and counts branches in the usage panel', async () => {
      const packageId = await createSmallPackage(api, 'inventory-br-2', { branches: 2 });
      const seller = await createSeller(api, { packageId });
      await addBranch(seller);
      await addBranch(seller);
      // Warehouses are not branches.
      await addWarehouse(seller);
      expect(
        refusal(
          await call('POST', '/api/inventory/branch', seller.token, { code: code('BR'), name: 'Third' }),
        ),
      ).toEqual({
        status: 403,
        code: InventoryCode.branchLimit,
        msg: 'Your package (Small inventory-br-2) allows 2 branches. Upgrade your package to add more.',
      });
      const usage = data<{ branches: { used: number; limit: number } }>(
        await call('GET', '/api/info/usage', seller.token),
      );
      expect(usage.branches).toEqual({ used: 2, limit: 2 });
    });
  });

  it('refuses a duplicate code across warehouses and branches, and bad fields', async () => {
    const taken = await addWarehouse(owner);
    for (const path of ['/api/inventory/warehouse', '/api/inventory/branch']) {
      expect(
        refusal(await call('POST', path, owner.token, { code: taken.code.toLowerCase(), name: 'Copy' })),
      ).toEqual({
        status: 409,
        code: InventoryCode.warehouseCodeTaken,
        msg: `A warehouse or branch with the code ${taken.code.toLowerCase()} already exists.`,
      });
    }
    const other = await addWarehouse(owner);
    expect(
      refusal(await call('PUT', `/api/inventory/warehouse/${other.id}`, owner.token, { code: taken.code })),
    ).toMatchObject({
      status: 409,
      code: InventoryCode.warehouseCodeTaken,
    });
    for (const [body, status, resultCode] of [
      [{ name: 'No code' }, 400, InventoryCode.codeRequired],
      [{ code: code('W') }, 400, InventoryCode.nameRequired],
      [{ code: code('W'), name: 'W', phone: 'call me' }, 400, InventoryCode.phoneInvalid],
      [{ code: code('W'), name: 'W', is_default: 'yes' }, 400, 400],
      [{ code: 'X'.repeat(TEXT_LIMITS.code + 1), name: 'W' }, 400, InventoryCode.textInvalid],
    ] as const) {
      expect(refusal(await call('POST', '/api/inventory/warehouse', owner.token, body))).toMatchObject({
        status,
        code: resultCode,
      });
    }
    expect(refusal(await call('PUT', `/api/inventory/warehouse/${other.id}`, owner.token, {}))).toMatchObject(
      {
        status: 400,
        code: InventoryCode.nothingToChange,
      },
    );
  });

  it("keeps each account's places to itself", async () => {
    const mine = await addWarehouse(owner);
    const branch = await addBranch(owner);
    const missing = await call('GET', `/api/inventory/warehouse/${randomUUID()}`, other.token);
    expect(missing.statusCode).toBe(404);
    for (const response of [
      await call('GET', `/api/inventory/warehouse/${mine.id}`, other.token),
      await call('PUT', `/api/inventory/warehouse/${mine.id}`, other.token, { name: 'Mine now' }),
      await call('POST', `/api/inventory/warehouse/${mine.id}/default`, other.token),
      await call('DELETE', `/api/inventory/warehouse/${mine.id}`, other.token),
      await call('DELETE', `/api/inventory/branch/${branch.id}`, other.token),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual(missing.json());
    }
    const theirs = data<Place[]>(await call('GET', '/api/inventory/warehouse', other.token));
    expect(theirs.map((place) => place.id)).not.toContain(mine.id);
    // Their own first warehouse is their default, whatever the owner's defaults are.
    const first = await addWarehouse(other);
    expect(first.is_default).toBe(true);
  });

  it('deletes a place with its rack locations once nothing is in stock there', async () => {
    const branch = await addBranch(owner, { name: 'Closing down' });
    const item = data<{ id: string; code: string }>(
      await call('POST', '/api/inventory/master-code', owner.token, {
        code: code('CLOSE'),
        name: 'Leftover',
      }),
    );
    data(
      await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
        warehouse_id: branch.id,
      }),
    );
    // A rack location alone is no stock (stock-removal.int.spec.ts refuses a place that holds some).
    expect(
      data<Place>(await call('GET', `/api/inventory/branch/${branch.id}`, owner.token)).master_code_count,
    ).toBe(0);
    data(await call('DELETE', `/api/inventory/branch/${branch.id}`, owner.token));
    const left = await api.database.db
      .selectFrom('master_code_locations')
      .select('warehouse_id')
      .where('master_code_id', '=', item.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('needs the warehouse permission to change places; readers of other inventory screens may list them', async () => {
    const place = await addWarehouse(owner);
    const keeper = await createSubUser(api, owner.tenantId, ['inventory-warehouse']);
    const racker = await createSubUser(api, owner.tenantId, ['inventory-rack']);
    const outsider = await createSubUser(api, owner.tenantId, ['inventory-categories']);
    expect(
      data<Place>(
        await call('PUT', `/api/inventory/warehouse/${place.id}`, keeper.token, { name: 'Renamed' }),
      ).name,
    ).toBe('Renamed');
    expect((await call('GET', '/api/inventory/warehouse', racker.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/inventory/branch`, racker.token)).statusCode).toBe(200);
    for (const [method, path, body] of [
      ['POST', '/api/inventory/warehouse', { code: code('N'), name: 'N' }],
      ['POST', '/api/inventory/branch', { code: code('N'), name: 'N' }],
      ['PUT', `/api/inventory/warehouse/${place.id}`, { name: 'N' }],
      ['POST', `/api/inventory/warehouse/${place.id}/default`, undefined],
      ['DELETE', `/api/inventory/warehouse/${place.id}`, undefined],
    ] as const) {
      expect((await call(method, path, racker.token, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    expect((await call('GET', '/api/inventory/warehouse', outsider.token)).statusCode).toBe(403);
    expect((await call('GET', `/api/inventory/warehouse/${place.id}`, outsider.token)).statusCode).toBe(403);
  });

  it("answers in the caller's language", async () => {
    const [current] = await defaults(owner.tenantId);
    expect(
      refusal(
        await call('PUT', `/api/inventory/warehouse/${current}`, owner.token, { is_default: false }, 'zh-cn'),
      ).msg,
    ).toBe('必须始终有一个默认仓库。请改为将另一个仓库设为默认。');
  });
});
