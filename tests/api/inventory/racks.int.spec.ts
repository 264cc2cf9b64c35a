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

type Rack = {
  id: string;
  warehouse: { id: string; code: string; name: string; kind: string };
  name: string;
  status: 'occupied' | 'available';
  note: string;
  master_code_count: number;
};
type Location = {
  warehouse: { id: string; code: string; name: string; kind: string };
  rack: { id: string; name: string; status: string } | null;
  note: string;
};
type LocationRow = Location & { master_code: { id: string; code: string; name: string } };

describe('racks and rack locations', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  /** On-hand stock the fake stock projection reports, by `masterCodeId|warehouseId`. */
  const stock = new Map<string, number>();
  const asked: string[] = [];
  const call = caller(() => api);
  let main: { id: string; code: string };
  let outlet: { id: string; code: string };

  let seq = 0;
  const code = (prefix: string) => {
    seq += 1;
    return `${prefix}${seq}`;
  };
  const masterCode = async (seller: TestSeller, type: 'standard' | 'combo' = 'standard') =>
    data<{ id: string; code: string }>(
      await call('POST', '/api/inventory/master-code', seller.token, {
        code: code('RK-'),
        name: `Stocked ${seq}`,
        type,
      }),
    );
  const addRack = async (seller: TestSeller, warehouse_id: string, body: Record<string, unknown> = {}) =>
    data<Rack>(
      await call('POST', '/api/inventory/rack', seller.token, { warehouse_id, name: code('A-'), ...body }),
    );

  beforeAll(async () => {
    api = await createTestApi({
      overrides: {
        stockOf: async (tenantId, masterCodeId, warehouseId) => {
          asked.push(`${tenantId}|${masterCodeId}|${warehouseId}`);
          return stock.get(`${masterCodeId}|${warehouseId}`) ?? 0;
        },
      },
    });
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    main = data(await call('POST', '/api/inventory/warehouse', owner.token, { code: 'MAIN', name: 'Main' }));
    outlet = data(await call('POST', '/api/inventory/branch', owner.token, { code: 'OUT', name: 'Outlet' }));
  });
  afterAll(async () => {
    await api?.close();
  });

  describe('racks', () => {
    it('adds, lists, edits and deletes racks, logging each change', async () => {
      const created = await call('POST', '/api/inventory/rack', owner.token, {
        warehouse_id: main.id,
        name: ' A-01-03 ',
        note: 'Top shelf',
      });
      expect(created.json()).toMatchObject({
        code: 0,
        msg: 'Rack created',
        data: {
          warehouse: { id: main.id, code: 'MAIN', name: 'Main', kind: 'warehouse' },
          name: 'A-01-03',
          status: 'available',
          note: 'Top shelf',
          master_code_count: 0,
        },
      });
      const rack = data<Rack>(created);
      const edited = await call('PUT', `/api/inventory/rack/${rack.id}`, owner.token, { status: 'occupied' });
      expect(edited.json()).toMatchObject({
        code: 0,
        msg: 'Rack updated',
        data: { status: 'occupied', name: 'A-01-03' },
      });
      // The same name may stand in another place.
      const inOutlet = await addRack(owner, outlet.id, { name: 'a-01-03' });
      expect(inOutlet.warehouse.kind).toBe('branch');
      expect(data<Rack>(await call('GET', `/api/inventory/rack/${rack.id}`, owner.token)).status).toBe(
        'occupied',
      );
      const deleted = await call('DELETE', `/api/inventory/rack/${inOutlet.id}`, owner.token);
      expect(deleted.json()).toEqual({ code: 0, msg: 'Rack deleted', data: { id: inOutlet.id } });
      expect((await activities(api, owner.tenantId, rack.id)).map((row) => row.action)).toEqual([
        'rack.created',
        'rack.updated',
      ]);
    });

    it('lists the racks of one place, filtered, sorted and paged in SQL', async () => {
      const seller = await createSeller(api, { packageId: 'growth' });
      const place = data<{ id: string }>(
        await call('POST', '/api/inventory/warehouse', seller.token, { code: 'P1', name: 'Place one' }),
      );
      const second = data<{ id: string }>(
        await call('POST', '/api/inventory/warehouse', seller.token, { code: 'P2', name: 'Place two' }),
      );
      for (const [name, status] of [
        ['C-3', 'occupied'],
        ['A-1', 'available'],
        ['B-2', 'occupied'],
      ] as const) {
        await addRack(seller, place.id, { name, status });
      }
      await addRack(seller, second.id, { name: 'Z-9' });
      const grid = async (query: Record<string, unknown>) => {
        const params = gridParams(query);
        return data<{ rows: Rack[]; lastRow: number }>(
          await call('GET', `/api/inventory/rack?${params}`, seller.token),
        );
      };
      const names = (page: { rows: Rack[] }) => page.rows.map((row) => row.name);
      expect(names(await grid({ warehouse_id: place.id }))).toEqual(['A-1', 'B-2', 'C-3']);
      expect((await grid({})).lastRow).toBe(4);
      expect(
        names(
          await grid({
            warehouse_id: place.id,
            filterModel: { status: { filterType: 'set', values: ['occupied'] } },
            sortModel: [{ colId: 'name', sort: 'desc' }],
          }),
        ),
      ).toEqual(['C-3', 'B-2']);
      expect(names(await grid({ search: 'z-' }))).toEqual(['Z-9']);
      expect(names(await grid({ warehouse_id: place.id, startRow: 1, endRow: 2 }))).toEqual(['B-2']);
      expect((await grid({ warehouse_id: 'not-a-uuid' })).lastRow).toBe(0);
    });

    it("refuses a duplicate or missing name, a bad status, and a place that is not the seller's", async () => {
      const rack = await addRack(owner, main.id);
      expect(
        refusal(
          await call('POST', '/api/inventory/rack', owner.token, {
            warehouse_id: main.id,
            name: rack.name.toLowerCase(),
          }),
        ),
      ).toEqual({
        status: 409,
        code: InventoryCode.nameTaken,
        msg: `A rack named ${rack.name.toLowerCase()} already exists in this warehouse.`,
      });
      expect(
        refusal(await call('POST', '/api/inventory/rack', owner.token, { warehouse_id: main.id })),
      ).toMatchObject({
        status: 400,
        code: InventoryCode.nameRequired,
      });
      expect(
        refusal(await call('PUT', `/api/inventory/rack/${rack.id}`, owner.token, { status: 'full' })),
      ).toEqual({
        status: 400,
        code: InventoryCode.statusInvalid,
        msg: 'The status must be occupied or available.',
      });
      const theirs = data<{ id: string }>(
        await call('POST', '/api/inventory/warehouse', other.token, { code: 'THEIRS', name: 'Theirs' }),
      );
      for (const warehouse_id of [theirs.id, randomUUID(), 'main']) {
        expect(
          refusal(await call('POST', '/api/inventory/rack', owner.token, { warehouse_id, name: 'X' })),
        ).toEqual({
          status: 400,
          code: InventoryCode.warehouseNotFound,
          msg: 'The chosen warehouse or branch does not exist.',
        });
      }
      const missing = await call('PUT', `/api/inventory/rack/${randomUUID()}`, other.token, { note: 'x' });
      for (const response of [
        await call('GET', `/api/inventory/rack/${rack.id}`, other.token),
        await call('PUT', `/api/inventory/rack/${rack.id}`, other.token, { note: 'x' }),
        await call('DELETE', `/api/inventory/rack/${rack.id}`, other.token),
      ]) {
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual(missing.json());
      }
    });
  });

  describe('rack locations', () => {
    it('puts a master code on a rack per place, moves it, and shows it with the master code', async () => {
      const item = await masterCode(owner);
      const shelf = await addRack(owner, main.id, { name: 'SHELF-1' });
      const bin = await addRack(owner, outlet.id, { name: 'BIN-1' });
      const placed = await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
        warehouse_id: main.id,
        rack_id: shelf.id,
        note: 'Left side',
      });
      expect(placed.json()).toMatchObject({ code: 0, msg: 'Rack location saved' });
      data(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
          warehouse_id: outlet.id,
          rack_id: bin.id,
        }),
      );
      const second = await addRack(owner, main.id, { name: 'SHELF-2' });
      const moved = data<Location[]>(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
          warehouse_id: main.id,
          rack_id: second.id,
          note: 'Moved',
        }),
      );
      expect(moved.map((location) => [location.warehouse.code, location.rack?.name, location.note])).toEqual([
        ['MAIN', 'SHELF-2', 'Moved'],
        ['OUT', 'BIN-1', ''],
      ]);
      const detail = data<{ locations: Location[] }>(
        await call('GET', `/api/inventory/master-code/${item.id}`, owner.token),
      );
      expect(detail.locations).toEqual(moved);
      // Off any rack, still in the place.
      const loose = data<Location[]>(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
          warehouse_id: outlet.id,
          rack_id: null,
        }),
      );
      expect(loose[1]).toMatchObject({ warehouse: { id: outlet.id }, rack: null });
      expect(
        data<Rack>(await call('GET', `/api/inventory/rack/${second.id}`, owner.token)).master_code_count,
      ).toBe(1);
      expect((await activities(api, owner.tenantId, item.id)).map((row) => row.action)).toEqual([
        'master_code.created',
        'master_code_location.set',
        'master_code_location.set',
        'master_code_location.set',
        'master_code_location.set',
      ]);

      const grid = data<{ rows: LocationRow[]; lastRow: number }>(
        await call(
          'GET',
          `/api/inventory/rack-location?warehouse_id=${main.id}&search=${encodeURIComponent(item.code)}`,
          owner.token,
        ),
      );
      expect(grid.lastRow).toBe(1);
      expect(grid.rows[0]).toMatchObject({
        master_code: { id: item.id, code: item.code },
        rack: { name: 'SHELF-2' },
      });
      const byRack = new URLSearchParams({
        filterModel: JSON.stringify({ rack: { type: 'equals', filter: 'shelf-2' } }),
      });
      expect(
        data<{ rows: LocationRow[] }>(
          await call('GET', `/api/inventory/rack-location?${byRack}`, owner.token),
        ).rows.map((row) => row.master_code.id),
      ).toEqual([item.id]);
    });

    it('refuses a rack of another place, an unknown place, a combo, and another account', async () => {
      const item = await masterCode(owner);
      const shelf = await addRack(owner, main.id);
      const theirs = await masterCode(other);
      const theirPlace = data<{ id: string }>(
        await call('POST', '/api/inventory/warehouse', other.token, { code: code('T'), name: 'Theirs' }),
      );
      const theirRack = await addRack(other, theirPlace.id);
      expect(
        refusal(
          await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
            warehouse_id: outlet.id,
            rack_id: shelf.id,
          }),
        ),
      ).toEqual({
        status: 400,
        code: InventoryCode.rackNotFound,
        msg: 'The chosen rack does not exist in this warehouse or branch.',
      });
      for (const rack_id of [theirRack.id, randomUUID(), 'shelf']) {
        expect(
          refusal(
            await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
              warehouse_id: main.id,
              rack_id,
            }),
          ),
        ).toMatchObject({ status: 400, code: InventoryCode.rackNotFound });
      }
      expect(
        refusal(
          await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
            warehouse_id: theirPlace.id,
          }),
        ),
      ).toMatchObject({ status: 400, code: InventoryCode.warehouseNotFound });
      const combo = await masterCode(owner, 'combo');
      expect(
        refusal(
          await call('PUT', `/api/inventory/master-code/${combo.id}/location`, owner.token, {
            warehouse_id: main.id,
          }),
        ),
      ).toEqual({
        status: 409,
        code: InventoryCode.comboHasNoStock,
        msg: 'A combo has no stock of its own, so it has no rack location. Place its items instead.',
      });
      const missing = await call('PUT', `/api/inventory/master-code/${randomUUID()}/location`, owner.token, {
        warehouse_id: main.id,
      });
      expect(missing.statusCode).toBe(404);
      const foreign = await call('PUT', `/api/inventory/master-code/${theirs.id}/location`, owner.token, {
        warehouse_id: main.id,
      });
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json()).toEqual(missing.json());
      const rows = await api.database.db
        .selectFrom('master_code_locations')
        .select('warehouse_id')
        .where('master_code_id', 'in', [item.id, combo.id, theirs.id])
        .execute();
      expect(rows).toEqual([]);
    });

    it('removes a master code from a branch only with 0 quantity there', async () => {
      const item = await masterCode(owner);
      data(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
          warehouse_id: outlet.id,
        }),
      );
      stock.set(`${item.id}|${outlet.id}`, 5);
      const refused = await call(
        'DELETE',
        `/api/inventory/master-code/${item.id}/location/${outlet.id}`,
        owner.token,
      );
      expect(refusal(refused)).toEqual({
        status: 409,
        code: InventoryCode.stockRemains,
        msg: 'Only 0 quantity able to be removed from a branch',
      });
      expect(asked).toContain(`${owner.tenantId}|${item.id}|${outlet.id}`);
      // Oversold stock below 0 is not 0 either.
      stock.set(`${item.id}|${outlet.id}`, -2);
      expect(
        refusal(
          await call(
            'DELETE',
            `/api/inventory/master-code/${item.id}/location/${outlet.id}`,
            owner.token,
            undefined,
            'zh-cn',
          ),
        ),
      ).toEqual({ status: 409, code: InventoryCode.stockRemains, msg: '只有数量为 0 的商品才能从分店移除' });
      expect(
        data<{ locations: Location[] }>(
          await call('GET', `/api/inventory/master-code/${item.id}`, owner.token),
        ).locations,
      ).toHaveLength(1);

      stock.set(`${item.id}|${outlet.id}`, 0);
      const removed = await call(
        'DELETE',
        `/api/inventory/master-code/${item.id}/location/${outlet.id}`,
        owner.token,
      );
      expect(removed.json()).toEqual({ code: 0, msg: 'Master code removed from the branch', data: [] });
      expect((await activities(api, owner.tenantId, item.id)).map((row) => row.action)).toContain(
        'master_code_location.removed',
      );
      // Not there any more.
      expect(
        (await call('DELETE', `/api/inventory/master-code/${item.id}/location/${outlet.id}`, owner.token))
          .statusCode,
      ).toBe(404);
    });

    it('deletes a rack only when no master code sits on it', async () => {
      const item = await masterCode(owner);
      const rack = await addRack(owner, main.id);
      data(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
          warehouse_id: main.id,
          rack_id: rack.id,
        }),
      );
      expect(refusal(await call('DELETE', `/api/inventory/rack/${rack.id}`, owner.token))).toEqual({
        status: 409,
        code: InventoryCode.inUse,
        msg: '1 master code is located on this rack. Move it before deleting it.',
      });
      data(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, owner.token, {
          warehouse_id: main.id,
          rack_id: null,
        }),
      );
      expect((await call('DELETE', `/api/inventory/rack/${rack.id}`, owner.token)).statusCode).toBe(200);
    });
  });

  it('needs the rack permission for racks and locations', async () => {
    const item = await masterCode(owner);
    const rack = await addRack(owner, main.id);
    const racker = await createSubUser(api, owner.tenantId, ['inventory-rack']);
    const outsider = await createSubUser(api, owner.tenantId, [
      'inventory-warehouse',
      'inventory-master-code',
    ]);
    for (const [method, path, body] of [
      ['GET', '/api/inventory/rack', undefined],
      ['GET', `/api/inventory/rack/${rack.id}`, undefined],
      ['POST', '/api/inventory/rack', { warehouse_id: main.id, name: 'X' }],
      ['PUT', `/api/inventory/rack/${rack.id}`, { note: 'X' }],
      ['DELETE', `/api/inventory/rack/${rack.id}`, undefined],
      ['GET', '/api/inventory/rack-location', undefined],
      ['PUT', `/api/inventory/master-code/${item.id}/location`, { warehouse_id: main.id }],
      ['DELETE', `/api/inventory/master-code/${item.id}/location/${main.id}`, undefined],
    ] as const) {
      expect((await call(method, path, outsider.token, body)).statusCode, `${method} ${path}`).toBe(403);
    }
    expect(
      data<Location[]>(
        await call('PUT', `/api/inventory/master-code/${item.id}/location`, racker.token, {
          warehouse_id: main.id,
          rack_id: rack.id,
        }),
      ),
    ).toHaveLength(1);
  });
});
