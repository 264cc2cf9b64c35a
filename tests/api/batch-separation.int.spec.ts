import { randomUUID } from 'node:crypto';
import type { PickListAnswer } from '@api/contracts/batches';
import { handleOrderCommand, loadOrder } from '@commands/orders/order';
import {
  type BatchAnswer,
  callerOf,
  data,
  type MadeOrder,
  makeOrders,
  refusal,
} from '@tests/api/batches-support';
import { type Catalogue, line, seedCatalogue } from '@tests/api/orders-support';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Batch separation through the API (spec §2 /orders/batch-separation; domain/batches/separation.ts): an open batch
 * split by carrier, by single or multiple items, or by the orders chosen — the largest group stays, each other group
 * is a new batch with the batch's settings, every order is told its new batch, and each pick list follows. Scanned
 * orders stay; a retry with the same key makes nothing twice; bad requests are the house's 400s.
 */
describe('batch separation API', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const call = callerOf(() => api);
  const ids = (orders: readonly MadeOrder[]) => orders.map((order) => order.orderId);
  const tracking = () => `MY${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const batchOf = async (orders: readonly MadeOrder[], body: Record<string, unknown> = {}) => {
    const answer = await data<{ batches: BatchAnswer[] }>(
      call('POST', '/api/orders/batches', seller.token, { order_ids: ids(orders), name: 'Morning', ...body }),
    );
    return answer.batches[0]!;
  };
  const separate = (batchId: string, body: Record<string, unknown>, token = seller.token) =>
    call('POST', `/api/orders/batches/${batchId}/separate`, token, body);
  const separated = (batchId: string, body: Record<string, unknown>) =>
    data<{ batches: BatchAnswer[] }>(separate(batchId, body)).then((answer) => answer.batches);
  const pickList = (batchId: string, filter = 'item') =>
    data<PickListAnswer>(
      call('GET', `/api/orders/batches/${batchId}/pick-list?filter=${filter}`, seller.token),
    );

  it('separates by carrier: the largest group stays, the other becomes a batch of its own, and pick lists follow', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'Ninja Van', lines: [line('SONGKET-01', 2)] },
      { shippingProvider: 'J&T Express', tracking: tracking() },
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'Ninja Van', lines: [line('SONGKET-01', 1)] },
    ]);
    const batch = await batchOf(orders, { max_orders: 10 });

    const response = await separate(batch.id, { by: 'logistics' });
    expect(response.json<{ msg: string }>().msg).toBe('Batch separated: 1 new batch');
    const [kept, made] = response.json<{ data: { batches: BatchAnswer[] } }>().data.batches;
    expect(kept!.id).toBe(batch.id);
    expect(kept!.orders.map((order) => order.id).sort()).toEqual(
      [orders[0]!, orders[2]!, orders[3]!].map((order) => order.orderId).sort(),
    );
    expect(made).toMatchObject({
      name: 'Morning · Ninja Van',
      split: 'logistics',
      group: 'Ninja Van',
      status: 'open',
      max_orders: 10,
      total_orders: 2,
    });
    expect(made!.label).not.toBe(batch.label);
    expect(made!.orders.map((order) => order.id).sort()).toEqual(
      [orders[1]!.orderId, orders[4]!.orderId].sort(),
    );
    expect((await loadOrder(api.store, seller.tenantId, orders[1]!.orderId)).batchId).toBe(made!.id);
    expect((await loadOrder(api.store, seller.tenantId, orders[0]!.orderId)).batchId).toBe(batch.id);

    // Each pick list holds its own batch's items only.
    const keptList = await pickList(batch.id);
    expect(keptList.order_count).toBe(3);
    expect(keptList.rows.map((row) => [row.code, row.quantity])).toEqual([['BATIK', 3]]);
    const madeList = await pickList(made!.id);
    expect(madeList.order_count).toBe(2);
    expect(madeList.rows.map((row) => [row.code, row.quantity])).toEqual([['SONGKET', 3]]);

    // Now one carrier per batch: nothing more to separate.
    expect(await refusal(separate(batch.id, { by: 'logistics' }))).toEqual({
      status: 400,
      code: 646,
      msg: 'Nothing to separate: every order of the batch still to be scanned falls in the same group',
    });
  });

  it('separates single-item orders from multiple-item ones, and leaves scanned orders where they are', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 1)] },
      { lines: [line('BATIK-01', 1), line('SONGKET-01', 1)] },
      { lines: [line('SONGKET-01', 3)] },
      { lines: [line('BATIK-01', 1), line('SONGKET-01', 2)], tracking: tracking() },
    ]);
    const batch = await batchOf(orders);
    // The multiple-item order already scanned stays in the batch whatever its group.
    await handleOrderCommand(
      api.store,
      orders[3]!.orderId,
      { type: 'ScanOrder', batchId: batch.id },
      { tenantId: seller.tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
    );
    const [kept, made] = await separated(batch.id, { by: 'items' });
    // Two single-item orders against one multiple: the singles stay.
    expect(kept!.orders.map((order) => order.id).sort()).toEqual(
      [orders[0]!, orders[2]!, orders[3]!].map((order) => order.orderId).sort(),
    );
    expect(made).toMatchObject({
      name: 'Morning · Multiple items',
      split: 'none',
      group: null,
      total_orders: 1,
    });
    expect(made!.orders[0]!.id).toBe(orders[1]!.orderId);
    expect((await pickList(made!.id, 'multiple')).order_count).toBe(1);

    // In the caller's language.
    const chinese = await makeOrders(api, seller.tenantId, catalogue, [
      { lines: [line('BATIK-01', 1)] },
      { lines: [line('BATIK-01', 1)] },
      { lines: [line('BATIK-01', 1), line('SONGKET-01', 1)] },
    ]);
    const other = await batchOf(chinese);
    const answer = await call(
      'POST',
      `/api/orders/batches/${other.id}/separate`,
      seller.token,
      { by: 'items' },
      'zh-cn',
    );
    expect(answer.json<{ msg: string }>().msg).toBe('批次已拆分：新建 1 个批次');
    expect(answer.json<{ data: { batches: BatchAnswer[] } }>().data.batches[1]!.name).toBe(
      'Morning · 多件商品',
    );
  });

  it('moves the chosen orders to a new batch, once for a retried request', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, {}, {}]);
    const batch = await batchOf(orders, { picker_id: null, date: '2026-12-01', prefix: 'PK', digits: 3 });
    const key = `separate-${randomUUID()}`;
    const body = { by: 'orders', order_ids: [orders[2]!.orderId], idempotency_key: key };
    const [kept, made] = await separated(batch.id, body);
    expect(kept!.total_orders).toBe(2);
    expect(made).toMatchObject({ name: 'Morning', date: '2026-12-01', total_orders: 1 });
    expect(made!.label).toMatch(/^PK\d{3}$/);
    const again = await separated(batch.id, body);
    expect(again.map((each) => each.id)).toEqual([kept!.id, made!.id]);
    expect(again[1]!.total_orders).toBe(1);
    const rows = await api.database.db
      .selectFrom('batch_claims')
      .select(['order_id', 'batch_id', 'confirmed'])
      .where('order_id', 'in', ids(orders))
      .execute();
    expect(rows.find((row) => row.order_id === orders[2]!.orderId)).toMatchObject({
      batch_id: made!.id,
      confirmed: true,
    });
  });

  it('refuses with the house answers and changes nothing', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, {}]);
    const [outside] = await makeOrders(api, seller.tenantId, catalogue, [{}]);
    const batch = await batchOf(orders);
    const before = await data<BatchAnswer>(call('GET', `/api/orders/batches/${batch.id}`, seller.token));

    expect(await refusal(separate(batch.id, { by: 'colour' }))).toEqual({
      status: 400,
      code: 400,
      msg: 'Separate by store, logistics, payment, items or orders',
    });
    expect(await refusal(separate(batch.id, {}))).toMatchObject({ status: 400, code: 400 });
    expect(await refusal(separate(batch.id, { by: 'orders' }))).toEqual({
      status: 400,
      code: 625,
      msg: 'At least one record must be selected',
    });
    expect(await refusal(separate(batch.id, { by: 'orders', order_ids: ids(orders) }))).toEqual({
      status: 400,
      code: 647,
      msg: 'Leave at least one order in the batch: choose fewer orders to move',
    });
    expect(await refusal(separate(batch.id, { by: 'orders', order_ids: [outside!.orderId] }))).toEqual({
      status: 400,
      code: 641,
      msg: `Order ${outside!.orderNumber} is not in this batch`,
    });
    expect(await refusal(separate(batch.id, { by: 'store', extra: true }))).toMatchObject({ status: 400 });

    // Only batch managers; another account's batch is not found.
    const packer = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    expect((await separate(batch.id, { by: 'store' }, packer.token)).statusCode).toBe(403);
    const other = await createSeller(api);
    expect(await refusal(separate(batch.id, { by: 'store' }, other.token))).toMatchObject({ status: 404 });
    expect(await refusal(separate('not-a-batch', { by: 'store' }))).toMatchObject({ status: 404 });

    const after = await data<BatchAnswer>(call('GET', `/api/orders/batches/${batch.id}`, seller.token));
    expect(after.orders.map((order) => order.id)).toEqual(before.orders.map((order) => order.id));

    // A closed batch is not separated.
    await data(call('POST', `/api/orders/batches/${batch.id}/close`, seller.token, {}));
    expect(await refusal(separate(batch.id, { by: 'orders', order_ids: [orders[0]!.orderId] }))).toEqual({
      status: 409,
      code: 630,
      msg: 'The batch is closed',
    });
  });
});
