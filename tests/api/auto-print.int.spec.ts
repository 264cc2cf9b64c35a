import { ORDERS_PROJECTION } from '@projections/orders';
import { FULFILMENT_PROJECTION } from '@projections/print-log';
import { seedCatalogue, settle } from '@tests/api/orders-support';
import { print, printableOrder } from '@tests/api/printing-support';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The worker auto print station's claim (issue 14; api/orders/auto-print.ts): the orders that reached the chosen
 * state since the station started, not printed for the document, each given to one station once — two stations
 * asking at once share them without overlap, a reloaded station is given none again, an order printed by hand is
 * left out.
 */

interface Claim {
  origin: string;
  orders: { id: string; order_number: string }[];
  more: boolean;
}

describe('worker auto print', () => {
  let api: TestApi;
  let seller: TestSeller;
  let warehouseId: string;
  let before: string;
  let since: string;
  const orders: string[] = [];

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    ({ warehouseId } = await seedCatalogue(api, seller.tenantId));
    before = (await printableOrder(api, seller.tenantId, warehouseId, 'SPXMY0000000100')).orderId;
    since = new Date().toISOString();
    for (const tracking of ['SPXMY0000000101', 'SPXMY0000000102', 'SPXMY0000000103'])
      orders.push((await printableOrder(api, seller.tenantId, warehouseId, tracking)).orderId);
    await settle(api);
  });
  afterAll(async () => {
    await api?.close();
  });

  const claim = (body: Record<string, unknown>, token = seller.token) =>
    api.app.inject({
      method: 'POST',
      url: '/api/orders/auto-print/claim',
      headers: bearer(token),
      payload: { state: 'unscan', since, ...body },
    });
  const claimed = async (body: Record<string, unknown>, token = seller.token) => {
    const response = await claim(body, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: Claim }>().data;
  };
  const ids = (answer: Claim) => answer.orders.map((order) => order.id).sort();

  it('gives each order to one station once: two stations at once, then a reload, get no order twice', async () => {
    const byHand = await print(api, seller.token, {
      document: 'INV',
      order_ids: [orders[0]!],
      origin: 'unscan',
    });
    expect(byHand.statusCode, byHand.body).toBe(200);
    await api.engine.catchUp(ORDERS_PROJECTION);

    const [a, b] = await Promise.all([
      claimed({ station: 'packing-1', document: 'INV' }),
      claimed({ station: 'packing-2', document: 'INV' }),
    ]);
    expect(a.origin).toBe('unscan');
    const both = [...ids(a), ...ids(b)].sort();
    expect(both).toEqual([orders[1]!, orders[2]!].sort());
    expect(await claimed({ station: 'packing-1', document: 'INV' })).toMatchObject({
      orders: [],
      more: false,
    });

    // Another document is claimed on its own; the order that was in the state before the station started is not.
    expect(ids(await claimed({ station: 'packing-1', document: 'PL' }))).toEqual([...orders].sort());
    expect(
      ids(await claimed({ station: 'packing-1', document: 'PL', since: '2020-01-01T00:00:00Z' })),
    ).toEqual([before]);
  });

  it("prints what it claimed from the state's origin, into the print log", async () => {
    const answer = await claimed({ station: 'packing-3', document: 'CL' });
    const response = await print(api, seller.token, {
      document: 'CL',
      order_ids: ids(answer),
      origin: answer.origin,
    });
    expect(response.statusCode, response.body).toBe(200);
    await api.engine.catchUp(FULFILMENT_PROJECTION);
    const log = await api.database.db
      .selectFrom('print_log')
      .select(['order_id', 'origin'])
      .where('tenant_id', '=', seller.tenantId)
      .where('document', '=', 'CL')
      .execute();
    expect(log.map((row) => row.order_id).sort()).toEqual([...orders].sort());
    expect(new Set(log.map((row) => row.origin))).toEqual(new Set(['unscan']));
  });

  it("never gives another account's orders, refuses a bad claim, and needs a printing key", async () => {
    const other = await createSeller(api);
    expect((await claimed({ station: 'x', document: 'DO' }, other.token)).orders).toEqual([]);
    for (const bad of [{ state: 'new' }, { station: 'a b' }, { since: 'yesterday' }]) {
      const response = await claim({ station: 'x', document: 'DO', ...bad });
      expect([response.statusCode, response.json<{ code: number }>().code], JSON.stringify(bad)).toEqual([
        400, 652,
      ]);
    }
    const noKey = await createSubUser(api, seller.tenantId, ['purchases-index']);
    expect((await claim({ station: 'x', document: 'DO' }, noKey.token)).statusCode).toBe(403);
  });
});
