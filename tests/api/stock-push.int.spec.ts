import { randomUUID } from 'node:crypto';
import type { PushLogPage, StoreAllocations } from '@api/contracts/stock-push';
import { PUSH_LOG_PROJECTION } from '@projections/push-log';
import { callerOf, data, refusal } from '@tests/api/batches-support';
import { type Catalogue, seedCatalogue } from '@tests/api/orders-support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { linkSku, seedStore } from '@tests/workflows/stock-push-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The stock push's routes (api/stock-push): the push rules of the allocation screens, the warehouses that feed a
 * store, the main store lock, the push log and "sync now" — their permissions, bad input answered with the push's
 * codes (740–759) and nothing saved, and each account seeing only its own.
 */
describe('stock push routes', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  let storeId: string;
  const call = callerOf(() => api);
  const RULE = { percent: 50, fixed: 1, buffer: 2, minimum: 0, maximum: 100 };

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId);
    storeId = await seedStore(api.database.db, seller.tenantId, { name: 'Batik House' });
    await linkSku(api.database.db, seller.tenantId, storeId, {
      itemId: '501',
      sellerSku: 'BATIK-01',
      masterCodeId: catalogue.batik,
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it("sets a store's rule, its warehouses and the main store lock", async () => {
    const first = await data<StoreAllocations>(
      call('GET', '/api/inventory/stock-allocation/stores', seller.token),
    );
    expect(first.stores).toEqual([
      expect.objectContaining({
        store_id: storeId,
        rule: null,
        default_warehouses: true,
        warehouses: [{ id: catalogue.warehouseId, name: 'Main' }],
        is_main: false,
      }),
    ]);
    const saved = await call('PUT', `/api/inventory/stock-allocation/stores/${storeId}`, seller.token, {
      rule: RULE,
    });
    expect(saved.json<{ msg: string }>().msg).toBe('Push rule saved.');
    expect(saved.json<{ data: StoreAllocations }>().data.stores[0]!.rule).toEqual(RULE);

    const locked = await data<StoreAllocations>(
      call('PUT', '/api/inventory/stock-allocation/main-store', seller.token, {
        main_store_id: storeId,
        lock_below: 5,
      }),
    );
    expect(locked.lock).toEqual({ main_store_id: storeId, lock_below: 5 });
    expect(locked.stores[0]!.is_main).toBe(true);

    const fed = await data<StoreAllocations>(
      call('PUT', `/api/inventory/stock-allocation/stores/${storeId}/warehouses`, seller.token, {
        warehouse_ids: [catalogue.warehouseId],
      }),
    );
    expect(fed.stores[0]).toMatchObject({ default_warehouses: false });
    const logged = await api.database.db
      .selectFrom('activity_log')
      .select('action')
      .where('tenant_id', '=', seller.tenantId)
      .where('action', 'like', 'stock_push.%')
      .orderBy('id')
      .execute();
    expect(logged.map((row) => row.action)).toEqual([
      'stock_push.store_rule_saved',
      'stock_push.main_store_saved',
      'stock_push.warehouses_saved',
    ]);
  });

  it('gives a master code its own rule in a store, listed and removed', async () => {
    const key = { store_id: storeId, master_code_id: catalogue.gift };
    await data(
      call('PUT', '/api/inventory/stock-allocation/marketplace', seller.token, { ...key, rule: RULE }),
    );
    const page = await data<{ rows: { code: string; rule: typeof RULE }[]; lastRow: number }>(
      call('GET', `/api/inventory/stock-allocation/marketplace?store_id=${storeId}`, seller.token),
    );
    expect(page).toEqual({ rows: [expect.objectContaining({ code: 'GIFT', rule: RULE })], lastRow: 1 });
    const query = `store_id=${storeId}&master_code_id=${catalogue.gift}`;
    await data(call('DELETE', `/api/inventory/stock-allocation/marketplace?${query}`, seller.token));
    expect(
      await refusal(call('DELETE', `/api/inventory/stock-allocation/marketplace?${query}`, seller.token)),
    ).toEqual({ status: 404, code: 744, msg: 'Master code not found.' });
  });

  it('refuses bad rules with the push codes and saves nothing', async () => {
    const put = (rule: unknown) =>
      call('PUT', `/api/inventory/stock-allocation/stores/${storeId}`, seller.token, { rule });
    const before = await data<StoreAllocations>(
      call('GET', '/api/inventory/stock-allocation/stores', seller.token),
    );
    expect(await refusal(put({ ...RULE, percent: 101 }))).toMatchObject({ status: 400, code: 740 });
    expect(await refusal(put({ ...RULE, percent: 12.345 }))).toMatchObject({ status: 400, code: 740 });
    expect(await refusal(put({ ...RULE, buffer: -1 }))).toMatchObject({ status: 400, code: 741 });
    expect(await refusal(put({ ...RULE, fixed: 1.5 }))).toMatchObject({ status: 400, code: 741 });
    expect(await refusal(put({ ...RULE, minimum: 10, maximum: 5 }))).toEqual({
      status: 400,
      code: 742,
      msg: 'The maximum must not be below the minimum.',
    });
    expect(
      await refusal(
        call('PUT', `/api/inventory/stock-allocation/stores/not-a-store`, seller.token, { rule: RULE }),
      ),
    ).toMatchObject({ status: 404, code: 743 });
    expect(
      await refusal(
        call('PUT', `/api/inventory/stock-allocation/stores/${storeId}/warehouses`, seller.token, {
          warehouse_ids: [randomUUID()],
        }),
      ),
    ).toMatchObject({ status: 404, code: 745 });
    expect(
      await refusal(
        call(
          'GET',
          '/api/logistic/sync-qty-log?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
          seller.token,
        ),
      ),
    ).toMatchObject({ status: 400, code: 748 });
    const after = await data<StoreAllocations>(
      call('GET', '/api/inventory/stock-allocation/stores', seller.token),
    );
    expect(after).toEqual(before);
  });

  it('asks inventory-manage-sync of every route, and multiple-warehouse-linking to choose warehouses', async () => {
    const stranger = await createSubUser(api, seller.tenantId, ['inventory-master-code']);
    const syncer = await createSubUser(api, seller.tenantId, ['inventory-manage-sync']);
    const linker = await createSubUser(api, seller.tenantId, ['multiple-warehouse-linking']);
    for (const [method, url] of [
      ['GET', '/api/inventory/stock-allocation/stores'],
      ['GET', '/api/logistic/sync-qty-log'],
      ['GET', '/api/inventory/manual-sync-status'],
      ['GET', '/api/inventory/stock-allocation/marketplace'],
    ] as const) {
      expect((await call(method, url, stranger.token)).statusCode, url).toBe(403);
      expect((await call(method, url, syncer.token)).statusCode, url).toBe(200);
    }
    const warehouses = `/api/inventory/stock-allocation/stores/${storeId}/warehouses`;
    const body = { warehouse_ids: [] };
    expect((await call('PUT', warehouses, syncer.token, body)).statusCode).toBe(403);
    expect((await call('PUT', warehouses, linker.token, body)).statusCode).toBe(200);
  });

  it('shows each account only its own stores, rules and push log', async () => {
    await api.store.append(
      `channelpush-${seller.tenantId}.${storeId}`,
      [
        {
          type: 'ChannelUpdatePushed',
          data: {
            storeId,
            platform: 'shopee',
            field: 'stock',
            pushedAt: new Date().toISOString(),
            lines: [
              {
                itemId: '501',
                modelId: '',
                sellerSku: 'BATIK-01',
                masterCodeId: catalogue.batik,
                quantity: 7,
                trigger: { origin: 'change', eventType: 'StockReserved', reason: 'Order accepted' },
                attempt: 1,
                outcome: 'retrying',
                answer: 'error_busy: try later',
              },
            ],
          },
          metadata: { tenantId: seller.tenantId, occurredAt: new Date().toISOString() },
        },
      ],
      { expectedRevision: 'any' },
    );
    await api.engine.catchUp(PUSH_LOG_PROJECTION);
    const mine = await data<PushLogPage>(
      call('GET', '/api/logistic/sync-qty-log?sku=batik&waiting_only=true', seller.token),
    );
    expect(mine.rows).toEqual([
      expect.objectContaining({
        store_name: 'Batik House',
        master_code: 'BATIK',
        quantity: 7,
        reason: 'Order accepted',
      }),
    ]);
    const status = await data<{ stores: { waiting: number; failed_today: number; linked_skus: number }[] }>(
      call('GET', '/api/inventory/manual-sync-status', seller.token),
    );
    expect(status.stores).toEqual([expect.objectContaining({ waiting: 1, failed_today: 1, linked_skus: 1 })]);

    const other = await createSeller(api);
    expect(await data<PushLogPage>(call('GET', '/api/logistic/sync-qty-log', other.token))).toEqual({
      rows: [],
      lastRow: 0,
    });
    expect(
      (await data<StoreAllocations>(call('GET', '/api/inventory/stock-allocation/stores', other.token)))
        .stores,
    ).toEqual([]);
    // Another account's store is a store not found, for rules and for "sync now".
    expect(
      await refusal(
        call('PUT', `/api/inventory/stock-allocation/stores/${storeId}`, other.token, { rule: RULE }),
      ),
    ).toMatchObject({ status: 404, code: 743 });
    expect(
      await refusal(call('POST', '/api/inventory/manual-sync', other.token, { store_id: storeId })),
    ).toMatchObject({ status: 404, code: 743 });
    expect(
      await refusal(
        call('PUT', '/api/inventory/stock-allocation/marketplace', other.token, {
          store_id: storeId,
          master_code_id: catalogue.batik,
          rule: RULE,
        }),
      ),
    ).toMatchObject({ status: 404, code: 743 });
  });
});
