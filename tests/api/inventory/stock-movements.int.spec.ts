import { randomUUID } from 'node:crypto';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './inventory-api';
import { expectRefusal, type StockMovementData, stockCalls } from './stock-api';

/** Receiving and adjusting one stock through the API: figures, idempotency, concurrency, refusals, settings. */
describe('stock receive and adjust', () => {
  let api: TestApi;
  let owner: TestSeller;
  let other: TestSeller;
  const stock = stockCalls(() => api);
  let kopi: { id: string; code: string };
  let teh: { id: string; code: string };
  let main: { id: string; code: string };
  let klang: { id: string; code: string };

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    other = await createSeller(api, { packageId: 'growth' });
    kopi = await stock.masterCode(owner.token, 'KOPI-1KG');
    teh = await stock.masterCode(owner.token, 'TEH-500G');
    main = await stock.warehouse(owner.token, 'KL');
    klang = await stock.branch(owner.token, 'KLANG');
  });
  afterAll(async () => {
    await api?.close();
  });

  const target = (masterCode = kopi, warehouse = main) => ({
    master_code_id: masterCode.id,
    warehouse_id: warehouse.id,
  });

  it('receives stock and answers the movement with the figures after it', async () => {
    const response = await stock.receive(owner.token, {
      ...target(teh),
      quantity: 40,
      reason: 'PO 1001',
      reference: 'PO-1001',
    });
    const answer = response.json() as { msg: string };
    expect(answer.msg).toBe('Stock received');
    expect(data<StockMovementData>(response)).toEqual({
      master_code: { id: teh.id, code: 'TEH-500G', name: 'Item TEH-500G' },
      warehouse: { id: main.id, code: 'KL', name: 'Warehouse KL' },
      action: 'StockReceived',
      mode: null,
      quantity: 40,
      previous_stock: 0,
      change: 40,
      on_hand: 40,
      reserved: 0,
      in_process: 0,
      on_hold: 0,
      pos_on_hold: 0,
      supplier_on_hold: 0,
      incoming: 0,
      available: 40,
      reason: 'PO 1001',
      revision: 0,
    });
    expect(await stock.onHand(owner.tenantId, teh.id, main.id)).toBe(40);
    const movement = await api.database.db
      .selectFrom('stock_movements')
      .select(['source_type', 'source_id', 'created_by', 'reason'])
      .where('tenant_id', '=', owner.tenantId)
      .where('master_code_id', '=', teh.id)
      .executeTakeFirstOrThrow();
    expect(movement).toEqual({
      source_type: 'reference',
      source_id: 'PO-1001',
      created_by: owner.userId,
      reason: 'PO 1001',
    });
  });

  it('adds, deducts and sets to a counted quantity', async () => {
    const wh = await stock.warehouse(owner.token, 'ADJ');
    const add = data<StockMovementData>(
      await stock.adjust(owner.token, { ...target(kopi, wh), mode: 'add', quantity: 10 }),
    );
    expect(add).toMatchObject({
      action: 'StockAdjusted',
      mode: 'add',
      previous_stock: 0,
      change: 10,
      on_hand: 10,
    });
    const deduct = data<StockMovementData>(
      await stock.adjust(owner.token, {
        ...target(kopi, wh),
        mode: 'deduct',
        quantity: 3,
        reason: 'Damaged',
      }),
    );
    expect(deduct).toMatchObject({
      mode: 'deduct',
      previous_stock: 10,
      change: -3,
      on_hand: 7,
      reason: 'Damaged',
    });
    const set = data<StockMovementData>(
      await stock.adjust(owner.token, {
        ...target(kopi, wh),
        mode: 'set',
        quantity: 12,
        reason: 'Stock take',
      }),
    );
    expect(set).toMatchObject({
      mode: 'set',
      quantity: 12,
      previous_stock: 7,
      change: 5,
      on_hand: 12,
      revision: 2,
    });
    const zero = data<StockMovementData>(
      await stock.adjust(owner.token, { ...target(kopi, wh), mode: 'set', quantity: 0 }),
    );
    expect(zero).toMatchObject({ change: -12, on_hand: 0 });
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(0);
  });

  it('moves stock in a branch too, and stock of an inactive master code', async () => {
    const old = await stock.masterCode(owner.token, 'OLD-1', { status: 'inactive' });
    const received = data<StockMovementData>(
      await stock.receive(owner.token, { ...target(old, klang), quantity: 5 }),
    );
    expect(received).toMatchObject({ on_hand: 5, warehouse: { id: klang.id, code: 'KLANG' } });
    const written = data<StockMovementData>(
      await stock.adjust(owner.token, {
        ...target(old, klang),
        mode: 'deduct',
        quantity: 5,
        reason: 'Discontinued',
      }),
    );
    expect(written.on_hand).toBe(0);
  });

  it('moves stock once for a repeated idempotency key, and answers the first answer again', async () => {
    const wh = await stock.warehouse(owner.token, 'IDEM');
    const key = `adj-${randomUUID()}`;
    const body = { ...target(kopi, wh), mode: 'add', quantity: 4 };
    const first = await stock.adjust(owner.token, body, { 'idempotency-key': key });
    const again = await stock.adjust(owner.token, body, { 'idempotency-key': key });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.headers['idempotent-replayed']).toBe('true');
    // The body field is the same key.
    const viaBody = await stock.adjust(owner.token, { ...body, idempotency_key: key });
    expect(viaBody.json()).toEqual(first.json());
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(4);

    // A receive with its own key, retried.
    const receiveKey = `rcv-${randomUUID()}`;
    const r1 = await stock.receive(
      owner.token,
      { ...target(kopi, wh), quantity: 6 },
      { 'idempotency-key': receiveKey },
    );
    const r2 = await stock.receive(
      owner.token,
      { ...target(kopi, wh), quantity: 6 },
      { 'idempotency-key': receiveKey },
    );
    expect(r2.json()).toEqual(r1.json());
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(10);

    // Without a key, the same request moves stock each time.
    await stock.adjust(owner.token, body);
    await stock.adjust(owner.token, body);
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(18);
  });

  it('refuses a key reused for a different movement, and header and body keys that differ', async () => {
    const wh = await stock.warehouse(owner.token, 'REUSE');
    const key = `k-${randomUUID()}`;
    data(
      await stock.adjust(
        owner.token,
        { ...target(kopi, wh), mode: 'add', quantity: 2 },
        { 'idempotency-key': key },
      ),
    );
    const events = await stock.eventCount(owner.tenantId);
    // Same stock, other quantity.
    expectRefusal(
      await stock.adjust(
        owner.token,
        { ...target(kopi, wh), mode: 'add', quantity: 3 },
        { 'idempotency-key': key },
      ),
      409,
      453,
    );
    // Another stock.
    const refused = expectRefusal(
      await stock.adjust(
        owner.token,
        { ...target(teh, wh), mode: 'add', quantity: 2 },
        { 'idempotency-key': key },
      ),
      409,
      453,
    );
    expect(refused.msg).toBe('This idempotency key was already used for a different stock movement.');
    expectRefusal(
      await stock.adjust(
        owner.token,
        { ...target(kopi, wh), mode: 'add', quantity: 2, idempotency_key: 'one' },
        { 'idempotency-key': 'two' },
      ),
      400,
      454,
    );
    expectRefusal(
      await stock.adjust(
        owner.token,
        { ...target(kopi, wh), mode: 'add', quantity: 2 },
        { 'idempotency-key': 'has space' },
      ),
      400,
      454,
    );
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
  });

  it('counts every one of 30 adjustments fired at the same stock at once', async () => {
    const wh = await stock.warehouse(owner.token, 'RUSH');
    const quantities = Array.from({ length: 30 }, (_, i) => (i % 7) + 1);
    const answers = await Promise.all(
      quantities.map((quantity, i) =>
        i % 3 === 2
          ? stock.receive(owner.token, { ...target(kopi, wh), quantity })
          : stock.adjust(owner.token, { ...target(kopi, wh), mode: 'add', quantity }),
      ),
    );
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const total = quantities.reduce((a, b) => a + b, 0);
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(total);
    // Each answer states the figures right after its own movement: 30 different revisions, one chain.
    const figures = answers.map((answer) => data<StockMovementData>(answer));
    expect(new Set(figures.map((f) => f.revision)).size).toBe(30);
    expect(Math.max(...figures.map((f) => f.on_hand))).toBe(total);

    // Deductions racing down to zero with negative stock refused: exactly the ones that fit are accepted.
    const deductions = await Promise.all(
      Array.from({ length: 20 }, () =>
        stock.adjust(owner.token, { ...target(kopi, wh), mode: 'deduct', quantity: 10 }),
      ),
    );
    const accepted = deductions.filter((d) => d.statusCode === 200).length;
    expect(deductions.every((d) => d.statusCode === 200 || d.statusCode === 409)).toBe(true);
    expect(accepted).toBe(Math.floor(total / 10));
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(total - accepted * 10);
  });

  it('refuses a deduction below zero while the setting is on, and allows it once the owner turns it off', async () => {
    const wh = await stock.warehouse(owner.token, 'NEG');
    data(await stock.receive(owner.token, { ...target(kopi, wh), quantity: 3 }));
    expect(data(await stock.call('GET', '/api/inventory/settings', owner.token))).toEqual({
      refuse_negative_manual: true,
      updated_at: null,
    });
    const refused = expectRefusal(
      await stock.adjust(owner.token, { ...target(kopi, wh), mode: 'deduct', quantity: 5 }),
      409,
      451,
    );
    expect(refused.msg).toBe(
      'Not enough stock: 3 on hand, a change of -5 would leave -2. Negative stock is refused for manual deductions (see the inventory settings).',
    );
    const inChinese = await stock.adjust(
      owner.token,
      { ...target(kopi, wh), mode: 'deduct', quantity: 5 },
      {
        language: 'zh-cn',
      },
    );
    expect((inChinese.json() as { msg: string }).msg).toContain('库存不足');
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(3);

    await stock.setRefuseNegative(owner.token, false);
    const settings = data<{ refuse_negative_manual: boolean; updated_at: string }>(
      await stock.call('GET', '/api/inventory/settings', owner.token),
    );
    expect(settings.refuse_negative_manual).toBe(false);
    expect(settings.updated_at).not.toBeNull();
    const allowed = data<StockMovementData>(
      await stock.adjust(owner.token, { ...target(kopi, wh), mode: 'deduct', quantity: 5 }),
    );
    expect(allowed).toMatchObject({ on_hand: -2, available: -2, change: -5 });
    expect(await stock.onHand(owner.tenantId, kopi.id, wh.id)).toBe(-2);
    await stock.setRefuseNegative(owner.token, true);
  });

  it('refuses a combo: it has no stock of its own', async () => {
    const combo = await stock.combo(owner.token, 'SET-KOPI-TEH', [
      { component_id: kopi.id, quantity: 1 },
      { component_id: teh.id, quantity: 2 },
    ]);
    const events = await stock.eventCount(owner.tenantId);
    const refused = expectRefusal(
      await stock.receive(owner.token, { ...target({ id: combo.id, code: 'SET-KOPI-TEH' }), quantity: 1 }),
      409,
      475,
    );
    expect(refused.msg).toBe(
      'SET-KOPI-TEH is a combo: it has no stock of its own. Adjust the stock of its components instead.',
    );
    expectRefusal(
      await stock.adjust(owner.token, { ...target({ id: combo.id, code: '' }), mode: 'add', quantity: 1 }),
      409,
      475,
    );
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
  });

  it('answers an unknown and another tenant’s master code or warehouse with the same 404, moving nothing', async () => {
    const theirs = await stock.masterCode(other.token, 'THEIRS');
    const theirPlace = await stock.warehouse(other.token, 'THEIRS');
    const events = await stock.eventCount(owner.tenantId);
    const missingCode = await stock.receive(owner.token, {
      ...target({ id: randomUUID(), code: '' }),
      quantity: 1,
    });
    const foreignCode = await stock.receive(owner.token, { ...target(theirs), quantity: 1 });
    const notUuid = await stock.receive(owner.token, { ...target({ id: 'nope', code: '' }), quantity: 1 });
    expectRefusal(missingCode, 404, 404);
    expect(foreignCode.statusCode).toBe(404);
    expect(foreignCode.body).toBe(missingCode.body);
    expect(notUuid.body).toBe(missingCode.body);
    expect((missingCode.json() as { msg: string }).msg).toBe('Master code not found.');

    const missingPlace = await stock.adjust(owner.token, {
      ...target(kopi, { id: randomUUID(), code: '' }),
      mode: 'add',
      quantity: 1,
    });
    const foreignPlace = await stock.adjust(owner.token, {
      ...target(kopi, theirPlace),
      mode: 'add',
      quantity: 1,
    });
    expectRefusal(missingPlace, 404, 404);
    expect(foreignPlace.body).toBe(missingPlace.body);
    expect((missingPlace.json() as { msg: string }).msg).toBe('Warehouse not found.');
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
    expect(await stock.eventCount(other.tenantId)).toBe(0);
  });

  it('refuses zero, negative, fractional and non-numeric quantities and unknown fields with a 400, moving nothing', async () => {
    const events = await stock.eventCount(owner.tenantId);
    for (const quantity of [0, -1, 1.5, '5', 'abc', null, 1_000_000_001]) {
      const received = expectRefusal(await stock.receive(owner.token, { ...target(), quantity }), 400, 450);
      expect(received.msg).toBe('The quantity must be a whole number from 1 to 1000000000.');
      expectRefusal(await stock.adjust(owner.token, { ...target(), mode: 'add', quantity }), 400, 450);
    }
    expectRefusal(await stock.adjust(owner.token, { ...target(), mode: 'deduct', quantity: 0 }), 400, 450);
    expectRefusal(await stock.adjust(owner.token, { ...target(), mode: 'set', quantity: -1 }), 400, 450);
    expectRefusal(await stock.adjust(owner.token, { ...target(), mode: 'double', quantity: 1 }), 400, 452);
    expectRefusal(await stock.adjust(owner.token, { ...target(), quantity: 1 }), 400, 452);
    expect((await stock.receive(owner.token, { ...target(), quantity: 1, extra: true })).statusCode).toBe(
      400,
    );
    expect(
      (await stock.receive(owner.token, { ...target(), quantity: 1, reason: 'x'.repeat(501) })).statusCode,
    ).toBe(400);
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
  });

  it('needs the stock adjustment key to move stock, and the owner to change the settings', async () => {
    const none = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    const adjuster = await createSubUser(api, owner.tenantId, ['inventory-stock-adjustment']);
    expectRefusal(await stock.receive(none.token, { ...target(), quantity: 1 }), 403, 403);
    expectRefusal(await stock.adjust(none.token, { ...target(), mode: 'add', quantity: 1 }), 403, 403);
    expectRefusal(await stock.call('GET', '/api/inventory/settings', none.token), 403, 403);
    expect((await stock.receive('not-a-token', { ...target(), quantity: 1 })).statusCode).toBe(401);

    const moved = data<StockMovementData>(
      await stock.receive(adjuster.token, { ...target(teh, klang), quantity: 2 }),
    );
    expect(moved.on_hand).toBe(2);
    data(await stock.call('GET', '/api/inventory/settings', adjuster.token));
    expectRefusal(
      await stock.call('PUT', '/api/inventory/settings', adjuster.token, { refuse_negative_manual: false }),
      403,
      403,
    );
    expect(
      (await stock.call('PUT', '/api/inventory/settings', owner.token, { refuse_negative_manual: 'no' }))
        .statusCode,
    ).toBe(400);
    const logged = await api.database.db
      .selectFrom('activity_log')
      .select(['action', 'detail'])
      .where('tenant_id', '=', owner.tenantId)
      .where('subject_type', '=', 'inventory_settings')
      .execute();
    expect(logged.map((row) => row.action)).toEqual([
      'inventory_settings.updated',
      'inventory_settings.updated',
    ]);
  });

  it('keeps tenants apart: settings and stock of one account never show in another', async () => {
    const mine = await stock.masterCode(other.token, 'OTHER-1');
    const place = await stock.warehouse(other.token, 'OTHER-WH');
    await stock.setRefuseNegative(other.token, false);
    expect(
      data<{ refuse_negative_manual: boolean }>(
        await stock.call('GET', '/api/inventory/settings', owner.token),
      ).refuse_negative_manual,
    ).toBe(true);
    data(await stock.adjust(other.token, { ...target(mine, place), mode: 'deduct', quantity: 1 }));
    expect(await stock.onHand(other.tenantId, mine.id, place.id)).toBe(-1);
    expect(await stock.onHand(owner.tenantId, mine.id, place.id)).toBeNull();
  });
});

describe('initial quantity of a new master code', () => {
  let api: TestApi;
  let owner: TestSeller;
  const stock = stockCalls(() => api);

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
  });
  afterAll(async () => {
    await api?.close();
  });

  const defaults = () =>
    api.database.db
      .selectFrom('warehouses')
      .select(['id', 'code', 'name', 'kind', 'is_default'])
      .where('tenant_id', '=', owner.tenantId)
      .orderBy('created_at')
      .execute();

  it('creates a default Main warehouse when the account has none, and receives the quantity there', async () => {
    await stock.branch(owner.token, 'MAIN'); // a branch holds the code MAIN: the warehouse takes MAIN-2
    const item = await stock.masterCode(owner.token, 'RICE-5KG', { initial_quantity: 25 });
    const places = await defaults();
    const warehouse = places.find((place) => place.kind === 'warehouse');
    expect(warehouse).toMatchObject({ code: 'MAIN-2', name: 'Main warehouse', is_default: true });
    expect(await stock.onHand(owner.tenantId, item.id, warehouse!.id)).toBe(25);
    const movement = await api.database.db
      .selectFrom('stock_movements')
      .select(['action', 'reason', 'source_type', 'source_id', 'created_by', 'new_stock'])
      .where('tenant_id', '=', owner.tenantId)
      .where('master_code_id', '=', item.id)
      .executeTakeFirstOrThrow();
    expect(movement).toEqual({
      action: 'StockReceived',
      reason: 'Initial quantity',
      source_type: 'master_code',
      source_id: item.id,
      created_by: owner.userId,
      new_stock: '25',
    });
    // The report names the source as the seller knows it (the master code's code), on the ledger and in the history
    // of one stock alike; the internal id stays an id, never the text shown.
    await stock.settle(owner.tenantId);
    const source = { type: 'master_code', id: item.id, number: 'RICE-5KG' };
    const ledger = data<{ rows: { source: unknown }[] }>(
      await stock.call('GET', `/api/inventory/stock/movements?master_code_id=${item.id}`, owner.token),
    );
    expect(ledger.rows.map((row) => row.source)).toEqual([source]);
    const history = data<{ movements: { source: unknown }[] }>(
      await stock.call(
        'GET',
        `/api/inventory/stock/history?master_code_id=${item.id}&warehouse_id=${warehouse!.id}&until=${new Date().toISOString()}`,
        owner.token,
      ),
    );
    expect(history.movements.map((row) => row.source)).toEqual([source]);
  });

  it('receives into the current default warehouse, and records nothing for 0', async () => {
    const second = await stock.warehouse(owner.token, 'PENANG', { is_default: true });
    const item = await stock.masterCode(owner.token, 'SUGAR-1KG', { initial_quantity: 7 });
    expect(await stock.onHand(owner.tenantId, item.id, second.id)).toBe(7);
    const none = await stock.masterCode(owner.token, 'SALT-1KG');
    expect(await stock.onHand(owner.tenantId, none.id, second.id)).toBeNull();
    expect((await defaults()).filter((place) => place.kind === 'warehouse')).toHaveLength(2);
  });
});
