import { randomUUID } from 'node:crypto';
import { ensurePackages } from '@commands/accounts/seed';
import { handleGoodsIssueCommand, loadGoodsIssue } from '@commands/goods-issue/goods-issue';
import { issueGoodsIssueStock } from '@commands/goods-issue/issue-stock';
import { handleStockCommand } from '@commands/inventory/stock';
import { eventSchemas } from '@domain/events';
import { GIN_STATUS } from '@domain/goods-issue/decider';
import { stockStreamId } from '@domain/inventory/stock';
import type { EventStore } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issuing an approved goods issue note's stock (commands/goods-issue/issue-stock.ts) against the real event store:
 * all lines or none, once however often the activity is retried, short stock refused before anything moves, a
 * line refused mid-way putting the earlier ones back, and the account's "refuse negative stock" setting obeyed.
 */
describe('issuing the stock of a goods issue note', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const tenantId = `tenant-${randomUUID().slice(0, 8)}`;
  const warehouseId = 'wh-main';
  const AT = '2026-11-22T08:00:00.000Z';

  beforeAll(async () => {
    database = await createTestDatabase();
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
    await ensurePackages(database.db);
    await database.db
      .insertInto('tenants')
      .values({ id: tenantId, name: 'Shop', country: 'MY', package_id: 'growth', status: 'active' })
      .execute();
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const context = (commandId = randomUUID()) => ({ tenantId, userId: 'user-1', commandId, occurredAt: AT });
  const receive = (masterCodeId: string, quantity: number) =>
    handleStockCommand(store, { type: 'ReceiveStock', masterCodeId, warehouseId, quantity }, context());
  const onHand = async (masterCodeId: string) => {
    const last = await store.readLastEvent(stockStreamId(tenantId, masterCodeId, warehouseId));
    return (last?.data as { onHand: number } | undefined)?.onHand ?? 0;
  };
  const stockEvents = async (masterCodeId: string) => {
    const events: { type: string; data: unknown }[] = [];
    for await (const event of store.readStream(stockStreamId(tenantId, masterCodeId, warehouseId))) {
      events.push({ type: event.type, data: event.data });
    }
    return events;
  };

  /** An approved note (one layer) issuing these lines from the main warehouse. */
  async function approvedNote(lines: { masterCodeId: string; quantity: number }[]) {
    const ginId = randomUUID();
    const run = (command: Parameters<typeof handleGoodsIssueCommand>[3]) =>
      handleGoodsIssueCommand(store, tenantId, ginId, command, {
        userId: 'clerk',
        commandId: randomUUID(),
        occurredAt: AT,
      });
    await run({
      type: 'CreateGoodsIssue',
      ginId,
      userId: 'clerk',
      at: AT,
      warehouseId,
      reference: 'GIN-T',
      reason: 'damaged in storage',
      remark: '',
      lines,
    });
    await run({
      type: 'SubmitGoodsIssue',
      userId: 'clerk',
      at: AT,
      settings: { layers: 1, reminderSeconds: 60, allowSameApprover: false },
    });
    await run({
      type: 'ApproveGoodsIssue',
      userId: 'boss',
      keys: ['gin-approval-layer-1'],
      layer: 1,
      at: AT,
    });
    return { ginId, workflowId: `goods-issue-${tenantId}-${ginId}` };
  }
  const issue = (note: { ginId: string; workflowId: string }, attempt = 1, on: EventStore = store) =>
    issueGoodsIssueStock(database.db, on, { tenantId, ...note, attempt, at: AT, userId: 'boss' });

  it('writes off every line once and completes, however often it runs', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await receive(a, 10);
    await receive(b, 4);
    const note = await approvedNote([
      { masterCodeId: a, quantity: 3 },
      { masterCodeId: b, quantity: 4 },
    ]);
    const first = await issue(note);
    expect(first).toEqual([
      {
        type: 'GinCompleted',
        data: {
          attempt: 1,
          at: AT,
          lines: [
            { masterCodeId: a, quantity: 3, onHand: 7 },
            { masterCodeId: b, quantity: 4, onHand: 0 },
          ],
        },
      },
    ]);
    expect(await issue(note)).toEqual(first);
    expect([await onHand(a), await onHand(b)]).toEqual([7, 0]);
    const written = (await stockEvents(a)).filter((event) => event.type === 'StockWrittenOff');
    expect(written).toEqual([
      {
        type: 'StockWrittenOff',
        data: expect.objectContaining({
          quantity: 3,
          reason: 'damaged in storage',
          source: { type: 'gin', id: note.ginId },
        }),
      },
    ]);
    expect((await loadGoodsIssue(store, tenantId, note.ginId))?.state.status).toBe(GIN_STATUS.complete);
  });

  it('finishes a run a crash cut short without moving its first line twice', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await receive(a, 5);
    await receive(b, 5);
    const note = await approvedNote([
      { masterCodeId: a, quantity: 2 },
      { masterCodeId: b, quantity: 1 },
    ]);
    // The first line's write-off went through before the worker died.
    await handleStockCommand(
      store,
      { type: 'WriteOffStock', masterCodeId: a, warehouseId, quantity: 2, refuseNegative: true },
      context(`${note.workflowId}:issue-1:out:${a}@${warehouseId}`),
    );
    const events = await issue(note);
    expect(events[0]?.type).toBe('GinCompleted');
    expect([await onHand(a), await onHand(b)]).toEqual([3, 4]);
  });

  it('fails before moving anything when a line is short and the account refuses negative stock', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await receive(a, 5);
    await receive(b, 1);
    const note = await approvedNote([
      { masterCodeId: a, quantity: 2 },
      { masterCodeId: b, quantity: 3 },
    ]);
    expect(await issue(note)).toEqual([
      {
        type: 'GinIssueFailed',
        data: { attempt: 1, at: AT, lines: [{ masterCodeId: b, quantity: 3, onHand: 1 }] },
      },
    ]);
    expect([await onHand(a), await onHand(b)]).toEqual([5, 1]);
    expect((await stockEvents(a)).map((event) => event.type)).toEqual(['StockReceived']);
    const state = (await loadGoodsIssue(store, tenantId, note.ginId))?.state;
    expect(state).toMatchObject({ status: GIN_STATUS.approved, issue: { failure: { attempt: 1 } } });
  });

  it('puts back the lines already written off when a later line is refused mid-way', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await receive(a, 5);
    await receive(b, 1);
    const note = await approvedNote([
      { masterCodeId: a, quantity: 2 },
      { masterCodeId: b, quantity: 3 },
    ]);
    // The check sees line b with enough stock (a sale takes it at the same instant): its write-off is refused.
    const bStream = stockStreamId(tenantId, b, warehouseId);
    let lied = false;
    const racing: EventStore = Object.create(store, {
      readLastEvent: {
        value: async (stream: string) => {
          const last = await store.readLastEvent(stream);
          if (stream !== bStream || lied || !last) return last;
          lied = true;
          return { ...last, data: { ...(last.data as object), onHand: 100 } };
        },
      },
    });
    const events = await issue(note, 1, racing);
    expect(events).toEqual([
      {
        type: 'GinIssueFailed',
        data: { attempt: 1, at: AT, lines: [{ masterCodeId: b, quantity: 3, onHand: 1 }] },
      },
    ]);
    expect([await onHand(a), await onHand(b)]).toEqual([5, 1]);
    expect(
      (await stockEvents(a)).map((event) => [event.type, (event.data as { change: number }).change]),
    ).toEqual([
      ['StockReceived', 5],
      ['StockWrittenOff', -2],
      ['StockAdjusted', 2],
    ]);
  });

  it('goes below zero when the account allows negative manual stock', async () => {
    await database.db
      .insertInto('inventory_settings')
      .values({ tenant_id: tenantId, refuse_negative_manual: false })
      .execute();
    const a = randomUUID();
    await receive(a, 1);
    const note = await approvedNote([{ masterCodeId: a, quantity: 4 }]);
    expect((await issue(note))[0]?.type).toBe('GinCompleted');
    expect(await onHand(a)).toBe(-3);
  });
});
