import { randomUUID } from 'node:crypto';
import { transferIdOfRequest } from '@commands/transfers/support';
import { handleTransferCommand } from '@commands/transfers/transfer';
import { handleTransferRequestCommand } from '@commands/transfers/transfer-request';
import {
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data } from './inventory/inventory-api';
import { expectCode, type TransferAnswer, transferCalls } from './transfers-support';

/**
 * Issue 5, transfers through the API with the real workflow on the run's Temporal dev server: a request approved
 * into a transfer, shipped, received in two parts; the stock figures of both places at each step (incoming at the
 * destination while in transit); returning the rest and cancelling; and every refusal of bad input or the wrong
 * moment, with nothing changed.
 */
describe('transfer requests and transfers', () => {
  let api: TestApi;
  let seller: TestSeller;
  let other: TestSeller;
  const t = transferCalls(() => api);
  let main: { id: string };
  let shop: { id: string };
  let otherPlace: { id: string };
  let batik: { id: string };
  let songket: { id: string };

  beforeAll(async () => {
    api = await createTestApi({ workflows: true });
    [seller, other] = await Promise.all([createSeller(api, { packageId: 'growth' }), createSeller(api)]);
    main = await t.stock.warehouse(seller.token, 'MAIN');
    shop = await t.stock.branch(seller.token, 'KL1');
    otherPlace = await t.stock.warehouse(other.token, 'ELSE');
    batik = await t.stock.masterCode(seller.token, 'BATIK');
    songket = await t.stock.masterCode(seller.token, 'SONGKET');
    for (const [item, quantity] of [
      [batik, 20],
      [songket, 8],
    ] as const) {
      const received = await t.stock.receive(seller.token, {
        master_code_id: item.id,
        warehouse_id: main.id,
        quantity,
      });
      expect(received.statusCode, received.body).toBe(200);
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  const at = async (item: { id: string }, place: { id: string }) =>
    t.figures(seller.tenantId, item.id, place.id);

  it('requests, approves, ships and receives in two parts, moving the stock of both places at each step', async () => {
    // ---- the request ----
    const created = await t.createRequest(seller.token, {
      from_warehouse_id: main.id,
      to_warehouse_id: shop.id,
      reference: 'REQ-KL1-001',
      remark: 'for the weekend bazaar',
      lines: [
        { master_code_id: batik.id, quantity: 5 },
        { master_code_id: songket.id, quantity: 3 },
      ],
    });
    const request = data<{ id: string; status: string; lines: unknown[] }>(created);
    expect(request).toMatchObject({ status: 'pending', lines: [{ quantity: 5 }, { quantity: 3 }] });
    const listedRequest = await t.listed<{ id: string; status: string; total_quantity: number }>(
      seller.token,
      'requests',
      request.id,
      'pending',
    );
    expect(listedRequest.total_quantity).toBe(8);

    // ---- approved: the transfer of its lines, linked both ways ----
    const approved = data<{ status: string; transfer_id: string }>(
      await t.requestAction(seller.token, request.id, 'approve'),
    );
    expect(approved.status).toBe('approved');
    const transferId = approved.transfer_id;
    let transfer = await t.transfer(seller.token, transferId);
    expect(transfer).toMatchObject({ status: 'pending', request_id: request.id, reference: 'REQ-KL1-001' });
    // Nothing moved yet.
    expect(await at(batik, main)).toEqual({ onHand: 20, incoming: 0 });
    expect(await at(batik, shop)).toEqual({ onHand: 0, incoming: 0 });

    // ---- ship: out of the source, incoming at the destination ----
    transfer = data<TransferAnswer>(await t.transferAction(seller.token, transferId, 'ship'));
    expect(transfer.status).toBe('in_transit');
    expect(transfer.shipped.by?.id).toBe(seller.userId);
    expect(transfer.lines.map((line) => line.in_transit)).toEqual([5, 3]);
    expect(await at(batik, main)).toEqual({ onHand: 15, incoming: 0 });
    expect(await at(songket, main)).toEqual({ onHand: 5, incoming: 0 });
    expect(await at(batik, shop)).toEqual({ onHand: 0, incoming: 5 });
    expect(await at(songket, shop)).toEqual({ onHand: 0, incoming: 3 });
    // The stock list (read model) shows the incoming figure at the destination.
    await t.stock.settle(seller.tenantId);
    const stockList = data<{ rows: { master_code_id: string; incoming: number; on_hand: number }[] }>(
      await t.call('GET', `/api/inventory/stock?warehouse_id=${shop.id}`, seller.token),
    );
    expect(stockList.rows.find((row) => row.master_code_id === batik.id)).toMatchObject({
      on_hand: 0,
      incoming: 5,
    });

    // ---- receive part: 2 of batik, all of songket ----
    transfer = data<TransferAnswer>(
      await t.transferAction(seller.token, transferId, 'receive', {
        lines: [
          { master_code_id: batik.id, quantity: 2 },
          { master_code_id: songket.id, quantity: 3 },
        ],
      }),
    );
    expect(transfer.status).toBe('in_transit');
    expect(transfer.lines.map((line) => [line.received, line.in_transit])).toEqual([
      [2, 3],
      [3, 0],
    ]);
    expect(await at(batik, shop)).toEqual({ onHand: 2, incoming: 3 });
    expect(await at(songket, shop)).toEqual({ onHand: 3, incoming: 0 });
    expect(await at(batik, main)).toEqual({ onHand: 15, incoming: 0 });

    // ---- receive the rest: completed ----
    transfer = data<TransferAnswer>(
      await t.transferAction(seller.token, transferId, 'receive', {
        lines: [{ master_code_id: batik.id, quantity: 3 }],
      }),
    );
    expect(transfer.status).toBe('completed');
    expect(await at(batik, shop)).toEqual({ onHand: 5, incoming: 0 });
    expect(await at(batik, main)).toEqual({ onHand: 15, incoming: 0 });
    expect(transfer.received.by?.name).toBe('Siti Aminah');

    // ---- the timeline: who did what, every stock step with its undo ----
    const types = transfer.timeline.map((entry) => entry.type);
    expect(types[0]).toBe('TransferCreated');
    expect(types.filter((type) => type === 'TransferStepRecorded')).toHaveLength(4 + 2 + 1);
    expect(types.slice(-2)).toEqual(['TransferReceived', 'TransferCompleted']);
    const out = transfer.timeline.find(
      (entry) =>
        entry.type === 'TransferStepRecorded' &&
        (entry.data.movement as { type: string }).type === 'TransferStockOut',
    );
    expect(out?.data.compensation).toEqual([
      expect.objectContaining({ type: 'TransferStockIn', warehouseId: main.id, quantity: 5 }),
    ]);
    expect(transfer.timeline.every((entry) => entry.user?.name === 'Siti Aminah')).toBe(true);

    // ---- the lists ----
    const row = await t.listed<{
      id: string;
      status: string;
      received_quantity: number;
      in_transit_quantity: number;
    }>(seller.token, 'transfers', transferId, 'completed');
    expect(row).toMatchObject({ received_quantity: 8, in_transit_quantity: 0 });
    await t.listed(seller.token, 'requests', request.id, 'approved');
  });

  /** A transfer made directly and shipped: `quantity` of batik from main to the shop, in transit. */
  async function shippedTransfer(quantity: number): Promise<string> {
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: batik.id, quantity }],
      }),
    );
    data(await t.transferAction(seller.token, made.id, 'ship'));
    return made.id;
  }

  it('returns the rest to the source after a partial receipt, and completes', async () => {
    const before = { main: await at(batik, main), shop: await at(batik, shop) };
    const id = await shippedTransfer(4);
    data(
      await t.transferAction(seller.token, id, 'receive', {
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
    );
    const done = data<TransferAnswer>(await t.transferAction(seller.token, id, 'return-rest'));
    expect(done.status).toBe('completed');
    expect(done.lines[0]).toMatchObject({ shipped: 4, received: 1, returned: 3, in_transit: 0 });
    expect(await at(batik, main)).toEqual({ onHand: before.main.onHand - 1, incoming: 0 });
    expect(await at(batik, shop)).toEqual({ onHand: before.shop.onHand + 1, incoming: before.shop.incoming });
    // A completed transfer takes no more actions.
    expectCode(await t.transferAction(seller.token, id, 'cancel'), 409, 509);
  });

  it('cancels before shipping without moving anything, and after shipping returns what is in transit', async () => {
    const before = { main: await at(batik, main), shop: await at(batik, shop) };
    const pending = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: batik.id, quantity: 2 }],
      }),
    );
    const cancelled = data<TransferAnswer>(
      await t.transferAction(seller.token, pending.id, 'cancel', { reason: 'ordered twice' }),
    );
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'ordered twice' });
    expect(cancelled.cancelled.by?.id).toBe(seller.userId);
    expect(await at(batik, main)).toEqual(before.main);

    const shipped = await shippedTransfer(3);
    expect(await at(batik, shop)).toEqual({ onHand: before.shop.onHand, incoming: before.shop.incoming + 3 });
    const back = data<TransferAnswer>(await t.transferAction(seller.token, shipped, 'cancel'));
    expect(back.status).toBe('cancelled');
    expect(back.lines[0]).toMatchObject({ shipped: 3, returned: 3, in_transit: 0 });
    expect(await at(batik, main)).toEqual(before.main);
    expect(await at(batik, shop)).toEqual(before.shop);
    // Nothing received: returning "the rest" is refused, cancelling is the way (tested above).
    const other = await shippedTransfer(1);
    expectCode(await t.transferAction(seller.token, other, 'return-rest'), 409, 514);
    data(await t.transferAction(seller.token, other, 'cancel'));
  });

  it('refuses bad input with the codes of the catalogue, and records nothing', async () => {
    const count = await t.documentEventCount(seller.tenantId);
    const body = (changes: Record<string, unknown>) => ({
      from_warehouse_id: main.id,
      to_warehouse_id: shop.id,
      lines: [{ master_code_id: batik.id, quantity: 1 }],
      ...changes,
    });
    const same = expectCode(
      await t.createRequest(seller.token, body({ to_warehouse_id: main.id })),
      400,
      500,
    );
    // Warehouses where they are warehouses; the spec's words where they are branches.
    expect(same.msg).toBe('Transfer source and destination warehouses must differ');
    expectCode(await t.createTransfer(seller.token, body({ to_warehouse_id: main.id })), 400, 500);
    const sameBranch = expectCode(
      await t.createTransfer(seller.token, body({ from_warehouse_id: shop.id, to_warehouse_id: shop.id })),
      400,
      500,
    );
    expect(sameBranch.msg).toBe('Transfer source and destination branches must differ');
    for (const quantity of [0, -3, 1.5, '2']) {
      expectCode(
        await t.createRequest(seller.token, body({ lines: [{ master_code_id: batik.id, quantity }] })),
        400,
        502,
      );
    }
    expectCode(await t.createRequest(seller.token, body({ lines: [] })), 400, 501);
    expectCode(
      await t.createRequest(
        seller.token,
        body({
          lines: [
            { master_code_id: batik.id, quantity: 1 },
            { master_code_id: batik.id.toUpperCase(), quantity: 2 },
          ],
        }),
      ),
      400,
      503,
    );
    // A master code the account does not have: unknown, or another account's.
    const theirs = await t.stock.masterCode(other.token, 'THEIRS');
    for (const id of ['00000000-0000-4000-8000-000000000000', theirs.id, 'not-an-id']) {
      expectCode(
        await t.createRequest(seller.token, body({ lines: [{ master_code_id: id, quantity: 1 }] })),
        404,
        504,
      );
    }
    // Another account's warehouse is simply not found.
    const foreign = expectCode(
      await t.createRequest(seller.token, body({ to_warehouse_id: otherPlace.id })),
      404,
      506,
    );
    const missing = expectCode(
      await t.createRequest(seller.token, body({ to_warehouse_id: '00000000-0000-4000-8000-000000000001' })),
      404,
      506,
    );
    expect(foreign).toEqual(missing);
    const combo = await t.stock.combo(seller.token, 'BUNDLE', [{ component_id: batik.id, quantity: 2 }]);
    expectCode(
      await t.createRequest(seller.token, body({ lines: [{ master_code_id: combo.id, quantity: 1 }] })),
      400,
      505,
    );
    expectCode(await t.createRequest(seller.token, body({ colour: 'red' })), 400, 400);
    expect(
      expectCode(await t.createRequest(seller.token, body({ reference: 'x'.repeat(101) })), 400, 516).msg,
    ).toBe('The reference is too long (maximum is 100 characters).');
    expect(await t.documentEventCount(seller.tenantId)).toBe(count);
  });

  it('refuses actions at the wrong moment, more than in transit, a double ship, and users without the key', async () => {
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        lines: [{ master_code_id: songket.id, quantity: 2 }],
      }),
    );
    const receive = (quantity: number) =>
      t.transferAction(seller.token, made.id, 'receive', {
        lines: [{ master_code_id: songket.id, quantity }],
      });
    const source = await at(songket, main);

    // Receive before ship.
    const early = expectCode(await receive(1), 409, 509);
    expect(early.msg).toBe('Cannot receive a transfer that is pending.');

    // A user without "manage transfer": 403, nothing moves.
    const viewer = await createSubUser(api, seller.tenantId, ['transfer-manage-request']);
    expectCode(await t.transferAction(viewer.token, made.id, 'ship'), 403, 403);
    expect((await t.call('GET', `/api/transfer-stock/transfers/${made.id}`, viewer.token)).statusCode).toBe(
      200,
    );
    const nobody = await createSubUser(api, seller.tenantId, []);
    expectCode(await t.call('GET', '/api/transfer-stock/transfers', nobody.token), 403, 403);

    // Two ships at once: exactly one moves the stock.
    const [a, b] = await Promise.all([
      t.transferAction(seller.token, made.id, 'ship'),
      t.transferAction(seller.token, made.id, 'ship'),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses, `${a.body} ${b.body}`).toEqual([200, 409]);
    const refused = [a, b].find((response) => response.statusCode === 409)!;
    expect([509, 510]).toContain(refused.json<{ code: number }>().code);
    expect(await at(songket, main)).toEqual({ onHand: source.onHand - 2, incoming: 0 });
    const outs = (await t.stockEvents(seller.tenantId)).filter(
      (event) =>
        event.type === 'StockTransferredOut' &&
        (event.data as { source?: { id: string } }).source?.id === made.id,
    );
    expect(outs).toHaveLength(1);

    // Ship again later: wrong state.
    expectCode(await t.transferAction(seller.token, made.id, 'ship'), 409, 509);
    // More than in transit, a master code not on the transfer, nothing at all.
    const more = expectCode(await receive(3), 409, 511);
    expect(more.msg).toBe('Cannot receive 3 of SONGKET: only 2 in transit.');
    expectCode(
      await t.transferAction(seller.token, made.id, 'receive', {
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
      400,
      512,
    );
    expectCode(await receive(0), 400, 512);
    expectCode(await receive(-1), 400, 502);
    expect(await at(songket, shop)).toMatchObject({ incoming: 2 });

    // Another account's transfer is not found, exactly like a missing one.
    const foreign = await t.transferAction(other.token, made.id, 'receive', {
      lines: [{ master_code_id: songket.id, quantity: 1 }],
    });
    const missing = await t.transferAction(other.token, '00000000-0000-4000-8000-000000000002', 'receive', {
      lines: [{ master_code_id: songket.id, quantity: 1 }],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect((await t.call('GET', `/api/transfer-stock/transfers/${made.id}`, other.token)).statusCode).toBe(
      404,
    );

    data(await receive(2));
    expect(await at(songket, shop)).toMatchObject({ incoming: 0 });
  });

  it('refuses to ship more than the source holds while negative stock is refused', async () => {
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: shop.id,
        to_warehouse_id: main.id,
        lines: [{ master_code_id: songket.id, quantity: 1000 }],
      }),
    );
    const before = await t.stockEvents(seller.tenantId);
    const short = expectCode(await t.transferAction(seller.token, made.id, 'ship'), 409, 513);
    expect(short.msg).toMatch(/^Not enough SONGKET at the source: \d+ on hand, 1000 to ship\.$/);
    expect(await t.stockEvents(seller.tenantId)).toHaveLength(before.length);
    expect((await t.transfer(seller.token, made.id)).status).toBe('pending');
    data(await t.transferAction(seller.token, made.id, 'cancel'));
  });

  it('approves, rejects and cancels requests once, with the right key, and keeps a retried create to one', async () => {
    const body = {
      from_warehouse_id: shop.id,
      to_warehouse_id: main.id,
      lines: [{ master_code_id: batik.id, quantity: 1 }],
    };
    const key = { 'idempotency-key': 'create-once-1' };
    const first = data<{ id: string; reference: string }>(await t.createRequest(seller.token, body, key));
    const again = data<{ id: string }>(await t.createRequest(seller.token, body, key));
    expect(again.id).toBe(first.id);
    expect(first.reference).toMatch(/^TRQ-[0-9A-F]{8}$/);

    // Approving needs "approve request"; making one needs "manage request".
    const maker = await createSubUser(api, seller.tenantId, ['transfer-manage-request']);
    const approver = await createSubUser(api, seller.tenantId, ['transfer-approve-request']);
    expectCode(await t.requestAction(maker.token, first.id, 'approve'), 403, 403);
    expectCode(await t.createRequest(approver.token, body), 403, 403);

    // Approve, then a second approval (a double click) and a late reject: 409, one transfer.
    const approved = data<{ transfer_id: string }>(
      await t.requestAction(approver.token, first.id, 'approve'),
    );
    const twice = expectCode(await t.requestAction(approver.token, first.id, 'approve'), 409, 508);
    expect(twice.msg).toBe('This transfer request is already approved.');
    expectCode(await t.requestAction(approver.token, first.id, 'reject', { reason: 'late' }), 409, 508);
    const transfers = await t.list<{ id: string; request_id: string | null }>(seller.token, 'transfers');
    expect(transfers.rows.filter((row) => row.request_id === first.id).map((row) => row.id)).toEqual([
      approved.transfer_id,
    ]);

    // Reject needs a reason; cancel a pending one; another account's id is not found.
    const second = data<{ id: string }>(await t.createRequest(maker.token, body));
    expectCode(await t.requestAction(approver.token, second.id, 'reject', { reason: '  ' }), 400, 507);
    expectCode(await t.requestAction(approver.token, second.id, 'reject', {}), 400, 507);
    const rejected = data<{ status: string; reject_reason: string; rejected: { by: { id: string } } }>(
      await t.requestAction(approver.token, second.id, 'reject', { reason: 'no stock to spare' }),
    );
    expect(rejected).toMatchObject({ status: 'rejected', reject_reason: 'no stock to spare' });
    expect(rejected.rejected.by.id).toBe(approver.userId);
    expectCode(await t.requestAction(maker.token, second.id, 'cancel'), 409, 508);

    const third = data<{ id: string }>(await t.createRequest(maker.token, body));
    const foreign = await t.requestAction(other.token, third.id, 'cancel');
    const missing = await t.requestAction(other.token, '00000000-0000-4000-8000-000000000003', 'cancel');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect((await t.call('GET', `/api/transfer-stock/requests/${third.id}`, other.token)).statusCode).toBe(
      404,
    );
    data(await t.requestAction(maker.token, third.id, 'cancel'));
    await t.listed(seller.token, 'requests', third.id, 'cancelled');
  });

  it('lists with filters, sorting and search, each account its own', async () => {
    const pending = await t.list<{ id: string; status: string; reference: string }>(
      seller.token,
      'requests',
      {
        filterModel: { status: { filterType: 'set', values: ['approved'] } },
      },
    );
    expect(pending.rows.length).toBeGreaterThan(0);
    expect(pending.rows.every((row) => row.status === 'approved')).toBe(true);
    const found = await t.list<{ reference: string }>(seller.token, 'requests', { search: 'KL1-001' });
    expect(found.rows.map((row) => row.reference)).toEqual(['REQ-KL1-001']);
    const byPlace = await t.list<{ from_warehouse: { id: string } }>(seller.token, 'transfers', {
      from_warehouse_id: shop.id,
    });
    expect(byPlace.rows.every((row) => row.from_warehouse.id === shop.id)).toBe(true);
    const sorted = await t.list<{ total_quantity: number }>(seller.token, 'transfers', {
      sortModel: [{ colId: 'total_quantity', sort: 'desc' }],
      startRow: 0,
      endRow: 2,
    });
    expect(sorted.rows).toHaveLength(2);
    expect(sorted.rows[0]!.total_quantity).toBeGreaterThanOrEqual(sorted.rows[1]!.total_quantity);
    expect(sorted.lastRow).toBeGreaterThan(2);
    const theirs = await t.list<unknown>(other.token, 'transfers');
    expect(theirs).toEqual({ rows: [], lastRow: 0 });
    expectCode(
      await t.call('GET', `/api/transfer-stock/transfers?from_warehouse_id=${otherPlace.id}`, seller.token),
      404,
      404,
    );
  });

  it('confirms once, and answers a resent action with its first answer without moving stock again', async () => {
    const made = data<{ id: string }>(
      await t.createTransfer(seller.token, {
        from_warehouse_id: main.id,
        to_warehouse_id: shop.id,
        reference: 'CONFIRM-1',
        lines: [{ master_code_id: batik.id, quantity: 1 }],
      }),
    );
    const confirmed = data<TransferAnswer & { confirmed_stamp: { by: { id: string } | null } }>(
      await t.transferAction(seller.token, made.id, 'confirm'),
    );
    expect(confirmed).toMatchObject({ status: 'pending', confirmed: true });
    expect(confirmed.confirmed_stamp.by?.id).toBe(seller.userId);
    expectCode(await t.transferAction(seller.token, made.id, 'confirm'), 409, 509);

    const source = await at(batik, main);
    const key = { 'idempotency-key': 'ship-confirm-1' };
    const first = await t.transferAction(seller.token, made.id, 'ship', {}, key);
    const again = await t.transferAction(seller.token, made.id, 'ship', {}, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(again.statusCode, again.body).toBe(200);
    expect(await at(batik, main)).toEqual({ onHand: source.onHand - 1, incoming: 0 });
    data(await t.transferAction(seller.token, made.id, 'cancel'));
  });

  it('offers the places and standard master codes to pick from, to holders of a transfer key', async () => {
    const picker = await createSubUser(api, seller.tenantId, ['transfer-manage-request']);
    const places = data<{ id: string; kind: string }[]>(
      await t.call('GET', '/api/transfer-stock/places', picker.token),
    );
    expect(places.map((place) => place.id).sort()).toEqual([main.id, shop.id].sort());
    const codes = data<{ code: string }[]>(
      await t.call('GET', '/api/transfer-stock/master-codes?search=ba', picker.token),
    );
    // The combo BUNDLE (made above) is no line a transfer can carry.
    expect(codes.map((code) => code.code)).toEqual(['BATIK']);
    const nobody = await createSubUser(api, seller.tenantId, ['inventory-master-code']);
    expectCode(await t.call('GET', '/api/transfer-stock/places', nobody.token), 403, 403);
  });

  it('rebuilds the lists from the events into the same rows', async () => {
    const dump = async () => {
      await api.engine.catchUp('transfers');
      const db = api.database.db;
      return {
        requests: await db.selectFrom('transfer_requests').selectAll().orderBy('id').execute(),
        transfers: await db.selectFrom('transfers').selectAll().orderBy('id').execute(),
      };
    };
    const live = await dump();
    expect(live.transfers.length).toBeGreaterThan(5);
    await api.engine.rebuild('transfers', { rebuildId: 'transfers-test' });
    expect(await dump()).toEqual(live);
  });

  it('repairs what an interrupted call left: an approval without its transfer, a transfer without its workflow', async () => {
    const lines = [{ masterCodeId: batik.id, quantity: 1 }];
    const context = (commandId: string) => ({
      tenantId: seller.tenantId,
      userId: seller.userId,
      commandId,
      occurredAt: new Date().toISOString(),
    });
    // An approval recorded, and the process gone before the transfer was made.
    const requestId = randomUUID();
    const transferId = transferIdOfRequest(seller.tenantId, requestId);
    await handleTransferRequestCommand(
      api.store,
      requestId,
      {
        type: 'CreateTransferRequest',
        requestId,
        fromWarehouseId: main.id,
        toWarehouseId: shop.id,
        reference: 'CUT-1',
        remark: '',
        lines,
      },
      context(`cut-create-${requestId}`),
    );
    await handleTransferRequestCommand(
      api.store,
      requestId,
      { type: 'ApproveTransferRequest', transferId },
      context(`cut-approve-${requestId}`),
    );
    expectCode(await t.transferAction(seller.token, transferId, 'ship'), 404, 404);
    // Approving again is refused, and makes sure the transfer stands.
    expectCode(await t.requestAction(seller.token, requestId, 'approve'), 409, 508);
    expect((await t.transfer(seller.token, transferId)).request_id).toBe(requestId);

    // A transfer recorded, and its workflow never started: the first action starts it and goes on.
    const orphan = randomUUID();
    await handleTransferCommand(
      api.store,
      orphan,
      {
        type: 'CreateTransfer',
        transferId: orphan,
        requestId: null,
        fromWarehouseId: main.id,
        toWarehouseId: shop.id,
        reference: 'CUT-2',
        remark: '',
        lines,
      },
      context(`cut-transfer-${orphan}`),
    );
    const source = await at(batik, main);
    expect(data<TransferAnswer>(await t.transferAction(seller.token, orphan, 'ship')).status).toBe(
      'in_transit',
    );
    expect(await at(batik, main)).toEqual({ onHand: source.onHand - 1, incoming: 0 });
    data(await t.transferAction(seller.token, orphan, 'cancel'));
    data(await t.transferAction(seller.token, transferId, 'cancel'));
  });
});
