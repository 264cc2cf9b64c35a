import { stockStreamId } from '@domain/inventory/stock';
import { caller, poster, type TestApi } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { expect } from 'vitest';
import { data, gridParams } from './inventory/inventory-api';
import { stockCalls } from './inventory/stock-api';

/** What the transfer tests share: places and master codes with stock, the transfer calls, and stock figures. */

export interface Line {
  master_code_id: string;
  quantity: number;
}

export interface TransferLineAnswer {
  master_code: { id: string; code: string | null };
  quantity: number;
  shipped: number;
  received: number;
  returned: number;
  in_transit: number;
}

export interface TransferAnswer {
  id: string;
  reference: string;
  status: string;
  confirmed: boolean;
  request_id: string | null;
  lines: TransferLineAnswer[];
  to_warehouse: { id: string; code: string | null };
  remark: string;
  revision: number;
  shortfalls: { master_code: { id: string; code: string | null }; quantity: number; on_hand: number }[];
  actions: string[];
  shipped: { by: { id: string; name: string | null } | null; at: string | null };
  received: { by: { id: string; name: string | null } | null; at: string | null };
  cancelled: { by: { id: string; name: string | null } | null; at: string | null };
  timeline: {
    type: string;
    at: string;
    user: { id: string; name: string | null } | null;
    data: Record<string, unknown>;
  }[];
}

export function transferCalls(api: () => TestApi) {
  const call = caller(api);
  const stock = stockCalls(api);
  const post = poster(api);

  return {
    call,
    stock,
    post,
    createRequest: (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post('/api/transfer-stock/requests', token, body, headers),
    createTransfer: (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post('/api/transfer-stock/transfers', token, body, headers),
    requestAction: (token: string, id: string, action: 'approve' | 'reject' | 'cancel', body: unknown = {}) =>
      post(`/api/transfer-stock/requests/${id}/${action}`, token, body),
    transferAction: (
      token: string,
      id: string,
      action: 'confirm' | 'ship' | 'receive' | 'return-rest' | 'cancel',
      body: unknown = {},
      headers: Record<string, string> = {},
    ) => post(`/api/transfer-stock/transfers/${id}/${action}`, token, body, headers),
    /** New master codes of the account (by code), each received into `place` in the quantity given. */
    async stocked<Code extends string>(
      token: string,
      place: { id: string },
      quantities: Record<Code, number>,
    ): Promise<Record<Code, { id: string }>> {
      const made = {} as Record<Code, { id: string }>;
      for (const [code, quantity] of Object.entries(quantities) as [Code, number][]) {
        const item = await stock.masterCode(token, code);
        data(await stock.receive(token, { master_code_id: item.id, warehouse_id: place.id, quantity }));
        made[code] = item;
      }
      return made;
    },
    editTransfer: (
      token: string,
      id: string,
      body: Record<string, unknown>,
      headers: Record<string, string> = {},
    ) => post(`/api/transfer-stock/transfers/${id}/edit`, token, body, headers),
    async transfer(token: string, id: string): Promise<TransferAnswer> {
      return data<TransferAnswer>(await call('GET', `/api/transfer-stock/transfers/${id}`, token));
    },
    /** The stock of a master code in a place as its stream's last event states it (the figures after it). */
    async figures(tenantId: string, masterCodeId: string, warehouseId: string) {
      const last = await api().store.readLastEvent(stockStreamId(tenantId, masterCodeId, warehouseId));
      const figures = (last?.data ?? { onHand: 0, incoming: 0 }) as { onHand: number; incoming: number };
      return { onHand: figures.onHand, incoming: figures.incoming };
    },
    /** Every stock event of the tenant's streams, oldest first: what moved, where, by which command. */
    async stockEvents(tenantId: string) {
      return api()
        .database.db.selectFrom('es_events')
        .select(['stream_id', 'type', 'data', 'metadata'])
        .where('stream_id', 'like', `stock-${tenantId}.%`)
        .orderBy('global_position')
        .execute();
    },
    /** How many events the tenant's transfer requests and transfers hold. */
    async documentEventCount(tenantId: string): Promise<number> {
      const row = await api()
        .database.db.selectFrom('es_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where((eb) =>
          eb.or([
            eb('stream_id', 'like', `transferRequest-${tenantId}.%`),
            eb('stream_id', 'like', `transfer-${tenantId}.%`),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** A list page once the transfers projection has caught up with every document event. */
    async list<Row>(token: string, path: 'requests' | 'transfers', query: Record<string, unknown> = {}) {
      await api().engine.catchUp('transfers');
      const response = await call('GET', `/api/transfer-stock/${path}?${gridParams(query)}`, token);
      return data<{ rows: Row[]; lastRow: number }>(response);
    },
    /** Waits until the list shows the document with `status` (the projection runs in the test's engine). */
    async listed<Row extends { id: string; status: string }>(
      token: string,
      path: 'requests' | 'transfers',
      id: string,
      status: string,
    ): Promise<Row> {
      return waitFor(
        async () => {
          await api().engine.catchUp('transfers');
          const response = await call(
            'GET',
            `/api/transfer-stock/${path}?${gridParams({ search: '' })}`,
            token,
          );
          const page = data<{ rows: Row[] }>(response);
          return page.rows.find((row) => row.id === id && row.status === status);
        },
        { what: `${path} ${id} listed as ${status}` },
      );
    },
  };
}

export function expectCode(
  response: { statusCode: number; json(): unknown; body: string },
  status: number,
  code: number,
): { code: number; msg: string } {
  expect(response.statusCode, response.body).toBe(status);
  const answer = response.json() as { code: number; msg: string };
  expect(answer.code, response.body).toBe(code);
  return answer;
}
