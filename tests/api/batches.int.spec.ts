import { randomUUID } from 'node:crypto';
import { handleOrderCommand, loadOrder } from '@commands/orders/order';
import {
  type BatchAnswer,
  callerOf,
  data,
  type MadeOrder,
  makeOrders,
  refusal,
  settledUntil,
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
 * Batches through the API (spec §3 "Batch"): made from a selection of new and unscan orders, numbered prefix +
 * zero-padded account sequence, split by logistics or payment method and cut at the most orders per batch, the
 * pre-order rule, one batch per order even when two are made at once, changed and closed, and its pick list in each
 * of the five item filters, as JSON and PDF.
 */
describe('batches API', () => {
  let api: TestApi;
  let seller: TestSeller;
  let catalogue: Catalogue;
  const call = callerOf(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    seller = await createSeller(api);
    catalogue = await seedCatalogue(api, seller.tenantId);
  });
  afterAll(async () => {
    await api?.close();
  });

  const create = (body: Record<string, unknown>, token = seller.token) =>
    call('POST', '/api/orders/batches', token, body);
  const made = (body: Record<string, unknown>) =>
    data<{ batches: BatchAnswer[] }>(create(body)).then((answer) => answer.batches);
  const ids = (orders: readonly MadeOrder[]) => orders.map((order) => order.orderId);

  it('numbers batches with the prefix and zero padding, one sequence per account', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, {}, {}, {}]);
    const [first] = await made({ order_ids: ids(orders.slice(0, 1)) });
    const [second] = await made({
      order_ids: ids(orders.slice(1, 2)),
      prefix: 'B',
      digits: 4,
      name: 'Morning',
    });
    const [third] = await made({ order_ids: ids(orders.slice(2, 3)), prefix: 'PK-', digits: 6 });
    expect([first!.label, second!.label, third!.label]).toEqual(['B0001', 'B0002', 'PK-000003']);
    expect(first!.name).toBe('B0001');
    expect(second!.name).toBe('Morning');
    expect(second!.number).toBe(2);

    const other = await createSeller(api);
    const otherCatalogue = await seedCatalogue(api, other.tenantId);
    const [otherOrder] = await makeOrders(api, other.tenantId, otherCatalogue, [{}]);
    const answer = await data<{ batches: BatchAnswer[] }>(
      call('POST', '/api/orders/batches', other.token, { order_ids: [otherOrder!.orderId] }),
    );
    expect(answer.batches[0]!.label).toBe('B0001');

    // Another account's order is not found (404), like a missing one.
    const foreign = await refusal(create({ order_ids: [otherOrder!.orderId] }));
    const missing = await refusal(create({ order_ids: [randomUUID()] }));
    expect(foreign).toEqual(missing);
    expect(foreign.status).toBe(404);
  });

  it('tells each order its batch, and shows the batch with its orders', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, { tracking: `MY${randomUUID()}` }]);
    const picker = await createSubUser(api, seller.tenantId, ['orders-order-by-task']);
    const [batch] = await made({ order_ids: ids(orders), picker_id: picker.userId, date: '2026-12-01' });
    expect(batch).toMatchObject({
      type: 'normal',
      status: 'open',
      date: '2026-12-01',
      total_orders: 2,
      picker: { id: picker.userId },
      source: 'manual',
    });
    expect(batch!.orders.map((order) => order.id)).toEqual(ids(orders));
    for (const order of orders) {
      expect((await loadOrder(api.store, seller.tenantId, order.orderId)).batchId).toBe(batch!.id);
    }
    const detail = await data<BatchAnswer>(call('GET', `/api/orders/batches/${batch!.id}`, seller.token));
    expect(detail.orders.map((order) => [order.order_number, order.status])).toEqual([
      [orders[0]!.orderNumber, 'new'],
      [orders[1]!.orderNumber, 'unscan'],
    ]);
    const page = await settledUntil(api, async () => {
      const found = await data<{ rows: { id: string; label: string; total_orders: number }[] }>(
        call('GET', `/api/orders/batches?search=${batch!.label}`, seller.token),
      );
      return found.rows.length > 0 && found;
    });
    expect(page.rows).toEqual([expect.objectContaining({ id: batch!.id, total_orders: 2 })]);

    // A batched order is not waiting any more, and cannot join another batch.
    const waiting = await data<{ rows: { id: string }[] }>(
      call('GET', '/api/orders/batches/waiting?endRow=500', seller.token),
    );
    expect(waiting.rows.map((row) => row.id)).not.toContain(orders[0]!.orderId);
    const again = await refusal(create({ order_ids: [orders[0]!.orderId] }));
    expect(again).toEqual({
      status: 409,
      code: 627,
      msg: `Order ${orders[0]!.orderNumber} is already in a batch`,
    });

    // Another account sees no such batch.
    const other = await createSeller(api);
    const foreign = await refusal(call('GET', `/api/orders/batches/${batch!.id}`, other.token));
    expect(foreign.status).toBe(404);
  });

  it('splits by logistics, then cuts at the most orders per batch', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'Ninja Van' },
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'J&T Express' },
      { shippingProvider: 'Ninja Van' },
    ]);
    const batches = await made({ order_ids: ids(orders), split: 'logistics', max_orders: 2 });
    expect(
      batches.map((batch) => [batch.group, batch.split, batch.max_orders, batch.orders.map((o) => o.id)]),
    ).toEqual([
      ['J&T Express', 'logistics', 2, [orders[0]!.orderId, orders[2]!.orderId]],
      ['J&T Express', 'logistics', 2, [orders[3]!.orderId]],
      ['Ninja Van', 'logistics', 2, [orders[1]!.orderId, orders[4]!.orderId]],
    ]);
    // Numbers follow one another.
    const numbers = batches.map((batch) => batch.number);
    expect(numbers).toEqual([numbers[0], numbers[0]! + 1, numbers[0]! + 2]);
  });

  it('splits by payment method', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [
      { paymentMethod: 'Cash on delivery' },
      { paymentMethod: 'ShopeePay' },
      { paymentMethod: 'Cash on delivery' },
    ]);
    const batches = await made({ order_ids: ids(orders), split: 'payment' });
    expect(batches.map((batch) => [batch.group, batch.orders.length])).toEqual([
      ['Cash on delivery', 2],
      ['ShopeePay', 1],
    ]);
  });

  it('takes pre-orders only in a pre-order batch, and no pre-order in a normal one', async () => {
    const [normal, pre, pre2] = await makeOrders(api, seller.tenantId, catalogue, [
      {},
      { preOrder: true },
      { preOrder: true },
    ]);
    expect(await refusal(create({ order_ids: [normal!.orderId, pre!.orderId] }))).toEqual({
      status: 400,
      code: 628,
      msg: `Order ${pre!.orderNumber} is a pre-order: put it in a pre-order batch`,
    });
    expect(await refusal(create({ order_ids: [pre!.orderId, normal!.orderId], type: 'pre-order' }))).toEqual({
      status: 400,
      code: 628,
      msg: `Order ${normal!.orderNumber} is not a pre-order: a pre-order batch takes pre-orders only`,
    });
    const [batch] = await made({ order_ids: [pre!.orderId, pre2!.orderId], type: 'pre-order' });
    expect(batch).toMatchObject({ type: 'pre-order', total_orders: 2 });
    // Nothing was claimed by the refused selections: the normal order is still free.
    const [free] = await made({ order_ids: [normal!.orderId] });
    expect(free!.total_orders).toBe(1);
  });

  it('refuses no selection, orders past batching, and bad settings', async () => {
    const [shipped] = await makeOrders(api, seller.tenantId, catalogue, [{ tracking: `MY${randomUUID()}` }]);
    await handleOrderCommand(
      api.store,
      shipped!.orderId,
      { type: 'ShipOrder', byMarketplace: false },
      { tenantId: seller.tenantId, commandId: randomUUID(), occurredAt: new Date().toISOString() },
    );
    expect(await refusal(create({ order_ids: [shipped!.orderId] }))).toEqual({
      status: 409,
      code: 626,
      msg: `Order ${shipped!.orderNumber} is shipped: only new and unscan orders can be batched`,
    });
    expect(await refusal(create({ order_ids: [] }))).toMatchObject({
      status: 400,
      code: 625,
      msg: 'At least one record must be selected',
    });
    expect(await refusal(create({}))).toMatchObject({ status: 400, code: 625 });
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [{}]);
    expect(await refusal(create({ order_ids: [order!.orderId], digits: 11 }))).toMatchObject({ code: 633 });
    expect(await refusal(create({ order_ids: [order!.orderId], max_orders: 0 }))).toMatchObject({
      code: 634,
    });
    expect(await refusal(create({ order_ids: [order!.orderId], prefix: 'B B' }))).toMatchObject({
      code: 632,
    });
    expect(await refusal(create({ order_ids: [order!.orderId], picker_id: randomUUID() }))).toMatchObject({
      status: 400,
      code: 631,
    });
    expect(await refusal(create({ order_ids: [order!.orderId], colour: 'red' }))).toMatchObject({
      status: 400,
    });
  });

  it('makes the same batches once for a retried request', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, {}, {}]);
    const body = { order_ids: ids(orders), max_orders: 2, idempotency_key: `retry-${randomUUID()}` };
    const first = await made(body);
    const second = await made(body);
    expect(second.map((batch) => [batch.id, batch.label])).toEqual(
      first.map((batch) => [batch.id, batch.label]),
    );
    const rows = await settledUntil(api, async () => {
      const found = await api.database.db
        .selectFrom('batches')
        .select('id')
        .where('tenant_id', '=', seller.tenantId)
        .where(
          'id',
          'in',
          first.map((batch) => batch.id),
        )
        .execute();
      return found.length === 2 && found;
    });
    expect(rows).toHaveLength(2);
  });

  it('gives an order to one batch when two are made from it at the same time', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, {}, {}]);
    const shared = orders[0]!.orderId;
    const answers = await Promise.all([
      create({ order_ids: [shared, orders[1]!.orderId] }),
      create({ order_ids: [shared, orders[2]!.orderId] }),
      create({ order_ids: [shared] }),
    ]);
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409]);
    const winner = answers
      .find((answer) => answer.statusCode === 200)!
      .json<{ data: { batches: BatchAnswer[] } }>().data.batches[0]!;
    expect((await loadOrder(api.store, seller.tenantId, shared)).batchId).toBe(winner.id);
    for (const loser of answers.filter((answer) => answer.statusCode === 409)) {
      expect(loser.json<{ code: number }>().code).toBe(627);
    }
    // The losers' other orders were not kept: they can be batched.
    const free = ids(orders.slice(1)).filter((id) => !winner.orders.some((order) => order.id === id));
    const [later] = await made({ order_ids: free });
    expect(later!.total_orders).toBe(free.length);
  });

  it('adds and takes out orders while open, up to its most; a closed batch takes no change', async () => {
    const orders = await makeOrders(api, seller.tenantId, catalogue, [{}, {}, {}, {}]);
    const [batch] = await made({ order_ids: [orders[0]!.orderId], max_orders: 3 });
    const added = await data<BatchAnswer>(
      call('POST', `/api/orders/batches/${batch!.id}/orders`, seller.token, {
        order_ids: [orders[1]!.orderId, orders[2]!.orderId],
      }),
    );
    expect(added.total_orders).toBe(3);
    expect(
      await refusal(
        call('POST', `/api/orders/batches/${batch!.id}/orders`, seller.token, {
          order_ids: [orders[3]!.orderId],
        }),
      ),
    ).toEqual({ status: 400, code: 629, msg: 'A batch holds at most 3 orders' });

    const removed = await data<BatchAnswer>(
      call('POST', `/api/orders/batches/${batch!.id}/orders/remove`, seller.token, {
        order_ids: [orders[1]!.orderId],
      }),
    );
    expect(removed.orders.map((order) => order.id)).toEqual([orders[0]!.orderId, orders[2]!.orderId]);
    expect((await loadOrder(api.store, seller.tenantId, orders[1]!.orderId)).batchId).toBeNull();
    // Taken out, it can join another batch.
    const [other] = await made({ order_ids: [orders[1]!.orderId] });
    expect(other!.total_orders).toBe(1);

    const picker = await createSubUser(api, seller.tenantId, ['orders-order-by-task']);
    const assigned = await data<BatchAnswer>(
      call('POST', `/api/orders/batches/${batch!.id}/picker`, seller.token, { picker_id: picker.userId }),
    );
    expect(assigned.picker?.id).toBe(picker.userId);

    const closed = await data<BatchAnswer>(
      call('POST', `/api/orders/batches/${batch!.id}/close`, seller.token, {}),
    );
    expect(closed.status).toBe('closed');
    expect(
      await refusal(
        call('POST', `/api/orders/batches/${batch!.id}/orders`, seller.token, {
          order_ids: [orders[3]!.orderId],
        }),
      ),
    ).toEqual({ status: 409, code: 630, msg: 'The batch is closed' });
  });

  it('needs the batch permission', async () => {
    const scanner = await createSubUser(api, seller.tenantId, ['orders-unscan']);
    const [order] = await makeOrders(api, seller.tenantId, catalogue, [{}]);
    expect((await create({ order_ids: [order!.orderId] }, scanner.token)).statusCode).toBe(403);
    expect((await call('GET', '/api/orders/batches', scanner.token)).statusCode).toBe(403);
    const batcher = await createSubUser(api, seller.tenantId, ['orders-batch']);
    expect((await create({ order_ids: [order!.orderId] }, batcher.token)).statusCode).toBe(200);
  });

  describe('pick list', () => {
    let batch: BatchAnswer;

    beforeAll(async () => {
      const db = api.database.db;
      const rackA = randomUUID();
      const rackB = randomUUID();
      await db
        .insertInto('racks')
        .values([
          { id: rackA, tenant_id: seller.tenantId, warehouse_id: catalogue.warehouseId, name: 'A-01' },
          { id: rackB, tenant_id: seller.tenantId, warehouse_id: catalogue.warehouseId, name: 'B-07' },
        ])
        .execute();
      await db
        .insertInto('master_code_locations')
        .values([
          {
            tenant_id: seller.tenantId,
            master_code_id: catalogue.songket,
            warehouse_id: catalogue.warehouseId,
            rack_id: rackA,
          },
          {
            tenant_id: seller.tenantId,
            master_code_id: catalogue.batik,
            warehouse_id: catalogue.warehouseId,
            rack_id: rackB,
          },
        ])
        .execute();
      const orders = await makeOrders(api, seller.tenantId, catalogue, [
        { lines: [line('BATIK-01', 2)] },
        { lines: [line('BATIK-01', 1), line('SONGKET-01', 3)] },
        { lines: [line('SONGKET-01', 1)] },
      ]);
      [batch] = (await made({ order_ids: ids(orders), name: '早班 รอบเช้า' })) as [BatchAnswer];
    });

    type PickRow = {
      code: string | null;
      seller_sku: string;
      quantity: number;
      order_count: number;
      locations: string[];
    };
    const pick = (filter: string) =>
      data<{ rows: PickRow[]; total_quantity: number; order_count: number }>(
        call('GET', `/api/orders/batches/${batch.id}/pick-list?filter=${filter}`, seller.token),
      );
    const summary = (rows: PickRow[]) =>
      rows.map((row) => [row.code, row.quantity, row.order_count, row.locations]);

    it('adds up each item with its rack, in rack order', async () => {
      const list = await pick('item');
      expect(summary(list.rows)).toEqual([
        ['SONGKET', 4, 2, ['A-01']],
        ['BATIK', 3, 2, ['B-07']],
      ]);
      expect(list.total_quantity).toBe(7);
      expect(list.order_count).toBe(3);
    });

    it('filters single-item and multiple-item orders, lists by SKU and by order line', async () => {
      expect(summary((await pick('single')).rows)).toEqual([
        ['SONGKET', 1, 1, ['A-01']],
        ['BATIK', 2, 1, ['B-07']],
      ]);
      expect(summary((await pick('multiple')).rows)).toEqual([
        ['SONGKET', 3, 1, ['A-01']],
        ['BATIK', 1, 1, ['B-07']],
      ]);
      expect((await pick('sku')).rows.map((row) => [row.seller_sku, row.quantity])).toEqual([
        ['SONGKET-01', 4],
        ['BATIK-01', 3],
      ]);
      expect((await pick('all')).rows).toHaveLength(4);
      expect(
        (await refusal(call('GET', `/api/orders/batches/${batch.id}/pick-list?filter=box`, seller.token)))
          .status,
      ).toBe(400);
    });

    it('breaks a combo into its components, each with its rack (a combo has no shelf)', async () => {
      const orders = await makeOrders(api, seller.tenantId, catalogue, [
        { lines: [line('GIFT-SET', 2)] },
        { lines: [line('BATIK-01', 1)] },
      ]);
      const [gifts] = (await made({ order_ids: ids(orders) })) as [BatchAnswer];
      const list = await data<{ rows: PickRow[]; total_quantity: number }>(
        call('GET', `/api/orders/batches/${gifts.id}/pick-list?filter=item`, seller.token),
      );
      // 2 gift sets of 1 batik and 2 songket, and 1 batik.
      expect(summary(list.rows)).toEqual([
        ['SONGKET', 4, 1, ['A-01']],
        ['BATIK', 3, 2, ['B-07']],
      ]);
      expect(list.total_quantity).toBe(7);
      const bySku = await data<{ rows: PickRow[] }>(
        call('GET', `/api/orders/batches/${gifts.id}/pick-list?filter=sku`, seller.token),
      );
      expect(bySku.rows.map((row) => [row.seller_sku, row.quantity])).toEqual([
        ['SONGKET-01', 4],
        ['BATIK-01', 3],
      ]);
    });

    it('prints as a PDF, a Chinese and Thai batch name included', async () => {
      const response = await call(
        'GET',
        `/api/orders/batches/${batch.id}/pick-list.pdf?filter=all`,
        seller.token,
      );
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('application/pdf');
      expect(response.headers['content-disposition']).toContain(`pick-list-${batch.label}.pdf`);
      expect(response.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const raw = (
        await api.app.inject({
          method: 'GET',
          url: `/api/orders/batches/${batch.id}/pick-list.pdf?filter=item`,
          headers: { authorization: `Bearer ${seller.token}`, language: 'th-th' },
        })
      ).rawPayload;
      expect(raw.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      // The Thai and CJK fonts are embedded.
      expect(raw.toString('latin1')).toMatch(/NotoSansThai/);
      expect(raw.toString('latin1')).toMatch(/NotoSansSC/);
    });
  });
});
