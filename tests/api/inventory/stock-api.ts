import type { TestApi } from '@tests/support/api';
import { poster } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { expect } from 'vitest';
import { caller, data } from './inventory-api';

/** What the stock API tests share: master codes and warehouses to move stock of, and the calls that move it. */

export interface StockMovementData {
  master_code: { id: string; code: string; name: string };
  warehouse: { id: string; code: string; name: string };
  action: string;
  mode: string | null;
  quantity: number;
  previous_stock: number;
  change: number;
  on_hand: number;
  reserved: number;
  in_process: number;
  on_hold: number;
  pos_on_hold: number;
  supplier_on_hold: number;
  incoming: number;
  available: number;
  reason: string | null;
  revision: number;
}

export function stockCalls(api: () => TestApi) {
  const call = caller(api);
  const post = poster(api);
  /**
   * Catches the stock projection up until it holds a movement for every stock event of the tenant. One catch-up
   * is not always enough: the log is read only below the oldest transaction running anywhere in the cluster, and
   * other test files share it.
   */
  const settle = (tenantId: string) =>
    waitFor(
      async () => {
        await api().engine.catchUp('stock');
        const db = api().database.db;
        const [events, movements] = await Promise.all([
          db
            .selectFrom('es_events')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('stream_id', 'like', `stock-${tenantId}.%`)
            .executeTakeFirstOrThrow(),
          db
            .selectFrom('stock_movements')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('tenant_id', '=', tenantId)
            .executeTakeFirstOrThrow(),
        ]);
        return events.n === movements.n;
      },
      { what: 'the stock projection to catch up' },
    );
  return {
    call,
    async masterCode(token: string, code: string, extra: Record<string, unknown> = {}) {
      return data<{ id: string; code: string }>(
        await call('POST', '/api/inventory/master-code', token, { code, name: `Item ${code}`, ...extra }),
      );
    },
    async combo(token: string, code: string, items: { component_id: string; quantity: number }[]) {
      return data<{ id: string }>(
        await call('POST', '/api/inventory/combo', token, { code, name: `Combo ${code}`, items }),
      );
    },
    async warehouse(token: string, code: string, extra: Record<string, unknown> = {}) {
      return data<{ id: string; code: string }>(
        await call('POST', '/api/inventory/warehouse', token, { code, name: `Warehouse ${code}`, ...extra }),
      );
    },
    async branch(token: string, code: string) {
      return data<{ id: string; code: string }>(
        await call('POST', '/api/inventory/branch', token, { code, name: `Branch ${code}` }),
      );
    },
    receive: (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post('/api/inventory/stock/receive', token, body, headers),
    adjust: (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post('/api/inventory/stock/adjust', token, body, headers),
    hold: (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post('/api/inventory/stock/hold', token, body, headers),
    async setRefuseNegative(token: string, refuse: boolean) {
      data(await call('PUT', '/api/inventory/settings', token, { refuse_negative_manual: refuse }));
    },
    settle,
    /** The projected on-hand stock, once the stock projection has every stock event of the tenant. */
    async onHand(tenantId: string, masterCodeId: string, warehouseId: string): Promise<number | null> {
      await settle(tenantId);
      const row = await api()
        .database.db.selectFrom('stock_levels')
        .select('on_hand')
        .where('tenant_id', '=', tenantId)
        .where('master_code_id', '=', masterCodeId)
        .where('warehouse_id', '=', warehouseId)
        .executeTakeFirst();
      return row ? Number(row.on_hand) : null;
    },
    /** How many stock events the tenant's streams hold. */
    async eventCount(tenantId: string): Promise<number> {
      const row = await api()
        .database.db.selectFrom('es_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('stream_id', 'like', `stock-${tenantId}.%`)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

export function expectRefusal(
  response: { statusCode: number; json(): unknown; body: string },
  status: number,
  code: number,
): { code: number; msg: string; errors?: { path: string; message: string }[] } {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { code: number; msg: string };
  expect(answer.code, response.body).toBe(code);
  return answer;
}
