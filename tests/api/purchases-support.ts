import type { GoodsReceiptDetail, PurchaseDetail } from '@api/contracts/purchases';
import { stockStreamId } from '@domain/inventory/stock';
import { caller, poster, type TestApi } from '@tests/support/api';
import { waitFor } from '@tests/support/wait';
import { expect } from 'vitest';
import { data } from './inventory/inventory-api';

/** What the purchasing API tests share: suppliers, orders and notes made through the API, and what they read back. */

export function purchaseCalls(api: () => TestApi) {
  const call = caller(api);
  const post = poster(api);
  return {
    call,
    post,
    async supplier(token: string, name: string, extra: Record<string, unknown> = {}) {
      return data<{ id: string; code: string }>(
        await post('/api/purchases/suppliers', token, {
          name,
          company: `${name} Sdn Bhd`,
          contact_number: '+60 3-1234 5678',
          address: '1 Jalan Ampang',
          city: 'Kuala Lumpur',
          postal_code: '50450',
          state: 'Wilayah Persekutuan',
          country: 'Malaysia',
          ...extra,
        }),
      );
    },
    createPurchase: (token: string, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
      post('/api/purchases', token, body, headers),
    purchase: async (token: string, id: string) =>
      data<PurchaseDetail>(await call('GET', `/api/purchases/${id}`, token)),
    act: (token: string, id: string, action: string, body: unknown = {}) =>
      post(`/api/purchases/${id}/${action}`, token, body),
    openReceipt: (token: string, purchaseId: string, body: Record<string, unknown>) =>
      post(`/api/purchases/${purchaseId}/goods-receipts`, token, body),
    note: async (token: string, id: string) =>
      data<GoodsReceiptDetail>(await call('GET', `/api/purchases/goods-receipts/${id}`, token)),
    noteAct: (token: string, id: string, action: string, body: unknown = {}) =>
      post(`/api/purchases/goods-receipts/${id}/${action}`, token, body),
    /** The figures of a stock, from its stream's last event (all 0 before any movement). */
    async stockOf(tenantId: string, masterCodeId: string, warehouseId: string) {
      const last = await api().store.readLastEvent(stockStreamId(tenantId, masterCodeId, warehouseId));
      const figures = last?.data as { onHand: number; incoming: number } | undefined;
      return {
        onHand: figures?.onHand ?? 0,
        incoming: figures?.incoming ?? 0,
        events: Number(last?.revision ?? -1) + 1,
      };
    },
    /** Every event of the tenant's purchasing and stock streams: "nothing changed" means this stays the same. */
    async eventCount(tenantId: string) {
      const row = await api()
        .database.db.selectFrom('es_events')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where((eb) =>
          eb.or([
            eb('stream_id', 'like', `purchase-${tenantId}.%`),
            eb('stream_id', 'like', `goodsReceipt-${tenantId}.%`),
            eb('stream_id', 'like', `stock-${tenantId}.%`),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    /** Catches a projection up until `probe` holds (the log is read below the oldest open transaction). */
    settle: <T>(projection: string, probe: () => Promise<T | undefined | false>, what = projection) =>
      waitFor(
        async () => {
          await api().engine.catchUp(projection);
          return probe();
        },
        { what },
      ),
  };
}

/** The status, code and message of a refusal. */
export function refused(response: { statusCode: number; json(): unknown }, status: number, code: number) {
  const answer = response.json() as { code: number; msg: string };
  expect({ status: response.statusCode, code: answer.code }, answer.msg).toEqual({ status, code });
  return answer.msg;
}
