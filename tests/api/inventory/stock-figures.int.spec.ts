import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { StockCode } from '@domain/inventory/codes';
import type { StockCommand } from '@domain/inventory/stock';
import { refusalOf } from '@domain/shared/errors';
import {
  bearer,
  createSeller,
  createSubUser,
  createTestApi,
  type TestApi,
  type TestSeller,
} from '@tests/support/api';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, gridParams } from './inventory-api';
import { expectRefusal, type StockMovementData, stockCalls } from './stock-api';

const FIGURES = [
  'on_hand',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
  'available',
] as const;
type Figure = (typeof FIGURES)[number];
type Figures = Record<Figure, number>;

interface StockRow extends Record<Figure, number | null> {
  key: string;
  code: string;
  type: string;
  warehouse_code: string;
  available: number;
  available_percent: number | null;
  negative: boolean;
}
interface MovementRow extends Figures {
  action: string;
  mode: string | null;
  new_stock: number;
}

const figuresOf = (row: Partial<Record<Figure, number | null>>) =>
  Object.fromEntries(FIGURES.map((figure) => [figure, row[figure]]));

/**
 * Every stock figure of spec §3 through the API: holds put and released by the seller, in process and incoming
 * written by the command handler (orders and purchases arrive later), on the stock list with its percent and
 * sorts, at a past instant, in the history, the series, the movement report and its export.
 */
describe('stock figures', () => {
  let api: TestApi;
  let owner: TestSeller;
  const stock = stockCalls(() => api);
  let mug: { id: string; code: string };
  let cap: { id: string; code: string };
  let box: { id: string; code: string };
  let pack: { id: string };
  let wh: { id: string; code: string };

  beforeAll(async () => {
    api = await createTestApi();
    owner = await createSeller(api, { packageId: 'growth' });
    mug = await stock.masterCode(owner.token, 'MUG');
    cap = await stock.masterCode(owner.token, 'CAP');
    box = await stock.masterCode(owner.token, 'BOX');
    pack = await stock.combo(owner.token, 'PACK', [
      { component_id: mug.id, quantity: 2 },
      { component_id: cap.id, quantity: 1 },
    ]);
    wh = await stock.warehouse(owner.token, 'FIG');
    data(await stock.receive(owner.token, { master_code_id: mug.id, warehouse_id: wh.id, quantity: 10 }));
    data(await stock.receive(owner.token, { master_code_id: cap.id, warehouse_id: wh.id, quantity: 8 }));
    // BOX: on hand 0, so no percent.
    data(await stock.receive(owner.token, { master_code_id: box.id, warehouse_id: wh.id, quantity: 1 }));
    data(
      await stock.adjust(owner.token, {
        master_code_id: box.id,
        warehouse_id: wh.id,
        mode: 'set',
        quantity: 0,
      }),
    );
  });
  afterAll(async () => {
    await api?.close();
  });

  const on = (masterCode: { id: string }) => ({ master_code_id: masterCode.id, warehouse_id: wh.id });
  const list = async (query: Record<string, unknown> = {}) => {
    await stock.settle(owner.tenantId);
    return data<{ rows: StockRow[]; lastRow: number }>(
      await stock.call(
        'GET',
        `/api/inventory/stock?${gridParams({ warehouse_id: wh.id, ...query })}`,
        owner.token,
      ),
    );
  };
  const row = async (code: string) => (await list()).rows.find((r) => r.code === code)!;
  const stockAt = async (masterCode: { id: string }, at: Date) =>
    data<Figures & { as_of_movement: MovementRow | null }>(
      await stock.call(
        'GET',
        `/api/inventory/stock/at?${gridParams({ ...on(masterCode), at: at.toISOString() })}`,
        owner.token,
      ),
    );
  /** Runs a command as the orders and purchases will: straight through the command handler. */
  const command = (c: StockCommand) =>
    handleStockCommand(api.store, c, {
      tenantId: owner.tenantId,
      userId: owner.userId,
      commandId: `${owner.tenantId}:${randomUUID()}`,
      occurredAt: new Date().toISOString(),
    });

  it('puts 3 of 10 on hold: on hold 3 and available online 7 in the answer, the stock list and at the instant', async () => {
    const response = await stock.hold(owner.token, {
      ...on(mug),
      hold: 'online',
      action: 'hold',
      quantity: 3,
      reason: 'Photo shoot',
    });
    expect((response.json() as { msg: string }).msg).toBe('Stock put on hold');
    const held = data<StockMovementData>(response);
    expect(held).toMatchObject({
      action: 'StockHeld',
      mode: 'online',
      quantity: 3,
      previous_stock: 10,
      change: 0,
      on_hand: 10,
      on_hold: 3,
      available: 7,
      reason: 'Photo shoot',
    });

    const listed = await row('MUG');
    expect(figuresOf(listed)).toEqual({
      on_hand: 10,
      reserved: 0,
      in_process: 0,
      on_hold: 3,
      pos_on_hold: 0,
      supplier_on_hold: 0,
      incoming: 0,
      available: 7,
    });
    expect(listed.available_percent).toBe(70);

    const now = await stockAt(mug, new Date());
    expect(figuresOf(now)).toEqual(figuresOf(listed));
    expect(now.as_of_movement).toMatchObject({
      action: 'StockHeld',
      mode: 'online',
      new_stock: 10,
      on_hold: 3,
      available: 7,
    });
  });

  it('keeps the three holds apart, releases part of one, and shows each in the list, history and series', async () => {
    data(await stock.hold(owner.token, { ...on(mug), hold: 'pos', action: 'hold', quantity: 2 }));
    data(await stock.hold(owner.token, { ...on(mug), hold: 'supplier', action: 'hold', quantity: 1 }));
    const released = await stock.hold(owner.token, {
      ...on(mug),
      hold: 'online',
      action: 'release',
      quantity: 1,
    });
    expect((released.json() as { msg: string }).msg).toBe('Stock released from hold');
    expect(data<StockMovementData>(released)).toMatchObject({
      action: 'StockHoldReleased',
      mode: 'online',
      on_hold: 2,
      pos_on_hold: 2,
      supplier_on_hold: 1,
      available: 5,
    });
    const listed = await row('MUG');
    expect([listed.on_hold, listed.pos_on_hold, listed.supplier_on_hold, listed.available]).toEqual([
      2, 2, 1, 5,
    ]);
    expect(listed.available_percent).toBe(50);

    const target = gridParams(on(mug));
    const history = data<Figures & { movements: MovementRow[] }>(
      await stock.call('GET', `/api/inventory/stock/history?${target}`, owner.token),
    );
    expect(figuresOf(history)).toMatchObject({
      on_hold: 2,
      pos_on_hold: 2,
      supplier_on_hold: 1,
      available: 5,
    });
    expect(history.movements.map((m) => [m.action, m.mode, m.on_hold, m.pos_on_hold, m.available])).toEqual([
      ['StockReceived', null, 0, 0, 10],
      ['StockHeld', 'online', 3, 0, 7],
      ['StockHeld', 'pos', 3, 2, 5],
      ['StockHeld', 'supplier', 3, 2, 4],
      ['StockHoldReleased', 'online', 2, 2, 5],
    ]);
    const series = data<{ points: (Figures & { at: string })[] }>(
      await stock.call('GET', `/api/inventory/stock/series?${target}`, owner.token),
    );
    expect(series.points.at(-1)).toMatchObject({
      on_hand: 10,
      on_hold: 2,
      pos_on_hold: 2,
      supplier_on_hold: 1,
      available: 5,
    });
    expect(series.points.map((point) => point.available)).toEqual([0, 10, 7, 5, 4, 5, 5]);

    // The combo's available counts its components' available online: min(floor(5 / 2), floor(8 / 1)) = 2.
    const combo = (await list()).rows.find((r) => r.code === 'PACK')!;
    expect(figuresOf(combo)).toEqual({
      on_hand: null,
      reserved: null,
      in_process: null,
      on_hold: null,
      pos_on_hold: null,
      supplier_on_hold: null,
      incoming: null,
      available: 2,
    });
    expect(combo.available_percent).toBeNull();
    expect(combo.key).toBe(`${pack.id}@${wh.id}`);
  });

  it('refuses to release more than is held, naming both quantities, and changes nothing', async () => {
    const events = await stock.eventCount(owner.tenantId);
    const refused = expectRefusal(
      await stock.hold(owner.token, { ...on(mug), hold: 'pos', action: 'release', quantity: 5 }),
      409,
      449,
    );
    expect(refused.msg).toBe('Only 2 are on this hold; 5 cannot be released.');
    const inThai = await stock.hold(
      owner.token,
      { ...on(cap), hold: 'supplier', action: 'release', quantity: 1 },
      { language: 'th-th' },
    );
    expectRefusal(inThai, 409, 449);
    expect((inThai.json() as { msg: string }).msg).toContain('พักไว้เพียง 0');
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
    expect((await row('MUG')).pos_on_hold).toBe(2);
  });

  it('replays a hold with its key, and refuses the key for another hold kind or the release', async () => {
    const key = `hold-${randomUUID()}`;
    const body = { ...on(cap), hold: 'online', action: 'hold', quantity: 2 };
    const first = await stock.hold(owner.token, body, { 'idempotency-key': key });
    const again = await stock.hold(owner.token, body, { 'idempotency-key': key });
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const events = await stock.eventCount(owner.tenantId);
    expectRefusal(
      await stock.hold(owner.token, { ...body, hold: 'pos' }, { 'idempotency-key': key }),
      409,
      453,
    );
    expectRefusal(
      await stock.hold(owner.token, { ...body, action: 'release' }, { 'idempotency-key': key }),
      409,
      453,
    );
    expectRefusal(
      await stock.adjust(owner.token, { ...on(cap), mode: 'add', quantity: 2 }, { 'idempotency-key': key }),
      409,
      453,
    );
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
    const listed = await row('CAP');
    expect([listed.on_hold, listed.available]).toEqual([2, 6]);
  });

  it('refuses a bad hold, action or quantity, a combo, another tenant’s stock and a user without the key', async () => {
    const events = await stock.eventCount(owner.tenantId);
    const badKind = expectRefusal(
      await stock.hold(owner.token, { ...on(mug), hold: 'shelf', action: 'hold', quantity: 1 }),
      400,
      StockCode.holdInvalid,
    );
    expect(badKind.msg).toBe('The hold must be online, pos (Smart POS) or supplier.');
    expect(StockCode.holdInvalid).toBe(498);
    expectRefusal(await stock.hold(owner.token, { ...on(mug), action: 'hold', quantity: 1 }), 400, 498);
    const badAction = expectRefusal(
      await stock.hold(owner.token, { ...on(mug), hold: 'pos', action: 'freeze', quantity: 1 }),
      400,
      498,
    );
    expect(badAction.msg).toBe('The action must be hold or release.');
    for (const quantity of [0, -2, 1.5, '3', 1_000_000_001]) {
      expectRefusal(
        await stock.hold(owner.token, { ...on(mug), hold: 'pos', action: 'hold', quantity }),
        400,
        450,
      );
    }
    expect(
      (await stock.hold(owner.token, { ...on(mug), hold: 'pos', action: 'hold', quantity: 1, extra: 1 }))
        .statusCode,
    ).toBe(400);
    expectRefusal(
      await stock.hold(owner.token, { ...on(pack), hold: 'online', action: 'hold', quantity: 1 }),
      409,
      475,
    );
    const other = await createSeller(api, { packageId: 'growth' });
    const theirs = await stock.warehouse(other.token, 'THEIRS');
    expectRefusal(
      await stock.hold(owner.token, {
        master_code_id: mug.id,
        warehouse_id: theirs.id,
        hold: 'online',
        action: 'hold',
        quantity: 1,
      }),
      404,
      404,
    );
    const viewer = await createSubUser(api, owner.tenantId, ['inventory-master-code']);
    expectRefusal(
      await stock.hold(viewer.token, { ...on(mug), hold: 'online', action: 'hold', quantity: 1 }),
      403,
      403,
    );
    expect(await stock.eventCount(owner.tenantId)).toBe(events);
  });

  it('shows incoming and in process written by the command handler on the stock list and the reports', async () => {
    await command({ type: 'ExpectStock', masterCodeId: box.id, warehouseId: wh.id, quantity: 12 });
    await command({
      type: 'ReceiveStock',
      masterCodeId: box.id,
      warehouseId: wh.id,
      quantity: 5,
      settlesIncoming: true,
    });
    await command({ type: 'ReserveStock', masterCodeId: box.id, warehouseId: wh.id, quantity: 3 });
    await command({ type: 'StartProcessing', masterCodeId: box.id, warehouseId: wh.id, quantity: 2 });
    const listed = await row('BOX');
    expect(figuresOf(listed)).toEqual({
      on_hand: 5,
      reserved: 1,
      in_process: 2,
      on_hold: 0,
      pos_on_hold: 0,
      supplier_on_hold: 0,
      incoming: 7,
      available: 2,
    });
    expect(listed.available_percent).toBe(40);

    const report = data<{ rows: MovementRow[] }>(
      await stock.call(
        'GET',
        `/api/inventory/stock/movements?${gridParams({ ...on(box), sortModel: [{ colId: 'occurred_at', sort: 'asc' }] })}`,
        owner.token,
      ),
    );
    expect(report.rows.map((m) => [m.action, m.incoming, m.reserved, m.in_process, m.available])).toEqual([
      ['StockReceived', 0, 0, 0, 1],
      ['StockAdjusted', 0, 0, 0, 0],
      ['StockIncomingExpected', 12, 0, 0, 0],
      ['StockReceived', 7, 0, 0, 5],
      ['StockReserved', 7, 3, 0, 2],
      ['StockProcessingStarted', 7, 1, 2, 2],
    ]);

    const csv = await api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/movements/export?${gridParams({ format: 'csv', ...on(box), sortModel: [{ colId: 'occurred_at', sort: 'asc' }] })}`,
      headers: bearer(owner.token),
    });
    const rows = Papa.parse<string[]>(csv.body.slice(1), { skipEmptyLines: true }).data;
    expect(rows.slice(1).map((r) => r[4])).toEqual([
      'Received',
      'Adjusted',
      'Incoming expected',
      'Received',
      'Reserved',
      'Processing started',
    ]);
    expect(rows.at(-1)!.slice(12, 19)).toEqual(['1', '2', '0', '0', '0', '7', '2']);
    const chinese = await api.app.inject({
      method: 'GET',
      url: `/api/inventory/stock/movements/export?${gridParams({ format: 'csv', ...on(box) })}`,
      headers: bearer(owner.token, 'zh-cn'),
    });
    expect(chinese.body.split('\r\n')[0]).toContain('在途');
    expect(chinese.body).toContain('开始处理');
  });

  it('sorts the stock list by every figure and by the percent, combos and nothing on hand last', async () => {
    // MUG: on hand 10, on hold 2, POS 2, supplier 1, available 5 (50%); CAP: 8, on hold 2, available 6 (75%);
    // BOX: 5, reserved 1, in process 2, incoming 7, available 2 (40%); PACK: a combo, available 2.
    const sorted = async (colId: string, sort: 'asc' | 'desc', extra: Record<string, unknown> = {}) =>
      (await list({ sortModel: [{ colId, sort }], ...extra })).rows;
    const values = async (colId: Figure | 'available_percent', sort: 'asc' | 'desc') =>
      (await sorted(colId, sort)).map((r) => r[colId]);
    const codes = async (colId: string, sort: 'asc' | 'desc', extra: Record<string, unknown> = {}) =>
      (await sorted(colId, sort, extra)).map((r) => r.code);
    expect(await values('on_hold', 'desc')).toEqual([2, 2, 0, null]);
    expect(await values('pos_on_hold', 'desc')).toEqual([2, 0, 0, null]);
    expect(await values('supplier_on_hold', 'desc')).toEqual([1, 0, 0, null]);
    expect(await values('in_process', 'desc')).toEqual([2, 0, 0, null]);
    expect(await values('in_process', 'asc')).toEqual([0, 0, 2, null]);
    expect(await values('incoming', 'desc')).toEqual([7, 0, 0, null]);
    expect(await values('reserved', 'asc')).toEqual([0, 0, 1, null]);
    expect(await values('available', 'asc')).toEqual([2, 2, 5, 6]);
    expect(await codes('available_percent', 'desc')).toEqual(['CAP', 'MUG', 'BOX', 'PACK']);
    expect(await codes('available_percent', 'asc')).toEqual(['BOX', 'MUG', 'CAP', 'PACK']);
    expect(await values('available_percent', 'asc')).toEqual([40, 50, 75, null]);
    // With a filter or a search the branches are joined before they are cut: the same orders.
    const everyType = { filterModel: { type: { filterType: 'set', values: ['standard', 'combo'] } } };
    expect(await codes('available_percent', 'desc', everyType)).toEqual(['CAP', 'MUG', 'BOX', 'PACK']);
    expect(await codes('incoming', 'asc', { search: 'o' })).toEqual(['BOX', 'PACK']); // BOX, "Combo PACK"
    const unknownSort = gridParams({ sortModel: [{ colId: 'percent', sort: 'asc' }] });
    expect((await stock.call('GET', `/api/inventory/stock?${unknownSort}`, owner.token)).statusCode).toBe(
      400,
    );

    // Nothing on hand: no percent, and it sorts after every percent both ways.
    data(await stock.adjust(owner.token, { ...on(cap), mode: 'set', quantity: 0 }));
    expect((await row('CAP')).available_percent).toBeNull();
    const ascending = await codes('available_percent', 'asc');
    expect(ascending.slice(0, 2)).toEqual(['BOX', 'MUG']);
    expect(ascending.slice(2).sort()).toEqual(['CAP', 'PACK']);
    const descending = await codes('available_percent', 'desc');
    expect(descending.slice(0, 2)).toEqual(['MUG', 'BOX']);
    expect(descending.slice(2).sort()).toEqual(['CAP', 'PACK']);
    // A negative percent: held beyond what is free.
    data(await stock.hold(owner.token, { ...on(box), hold: 'online', action: 'hold', quantity: 3 }));
    const boxRow = await row('BOX');
    expect([boxRow.available, boxRow.available_percent, boxRow.negative]).toEqual([-1, -20, true]);
  });

  it('maps the domain refusals of the new figures to 409 answers', async () => {
    await expect(
      command({ type: 'StopProcessing', masterCodeId: box.id, warehouseId: wh.id, quantity: 9 }),
    ).rejects.toMatchObject({ code: 'STOP_MORE_THAN_IN_PROCESS' });
    await expect(
      command({ type: 'CancelExpectedStock', masterCodeId: box.id, warehouseId: wh.id, quantity: 8 }),
    ).rejects.toMatchObject({ code: 'CANCEL_MORE_THAN_INCOMING' });
    for (const [type, key] of [
      ['StopProcessing', 'stock.stop_more_than_in_process'],
      ['CancelExpectedStock', 'stock.cancel_more_than_incoming'],
      ['ReleaseHold', 'stock.release_more_than_held'],
    ] as const) {
      const error = await command({
        type,
        masterCodeId: box.id,
        warehouseId: wh.id,
        quantity: 100,
        ...(type === 'ReleaseHold' ? { hold: 'pos' as const } : {}),
      } as StockCommand).catch((e: unknown) => e);
      // The refusal carries its answer (domain/inventory/stock.ts stockErrors); the app's one handler sends it.
      const answer = refusalOf(error)?.refusal;
      expect(answer).toMatchObject({ status: 409, code: StockCode.refused, key });
    }
  });
});
