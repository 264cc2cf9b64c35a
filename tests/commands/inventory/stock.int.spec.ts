import { randomUUID } from 'node:crypto';
import { handleStockCommand } from '@commands/inventory/stock';
import { eventSchemas } from '@domain/events';
import {
  decide,
  evolve,
  initialState,
  type StockEvent,
  type StockState,
  stockStreamId,
} from '@domain/inventory/stock';
import type { DomainError } from '@domain/shared/errors';
import type { EventStore } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('stock commands against the real event store', () => {
  let database: TestDatabase;
  let store: PostgresEventStore;
  const tenantId = 'tenant-a';

  beforeAll(async () => {
    database = await createTestDatabase({ poolSize: 20 });
    store = new PostgresEventStore(database.pool, new EventSchemaRegistry().registerAll(eventSchemas));
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const context = (commandId = randomUUID()) => ({
    tenantId,
    userId: 'user-1',
    commandId,
    occurredAt: new Date().toISOString(),
  });

  async function eventsOf(masterCodeId: string, warehouseId: string) {
    const events = [];
    for await (const event of store.readStream(stockStreamId(tenantId, masterCodeId, warehouseId)))
      events.push(event);
    return events;
  }

  it('counts every one of many simultaneous adjustments of the same stock', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-1' };
    await handleStockCommand(store, { type: 'ReceiveStock', ...at, quantity: 100 }, context());
    const moves = Array.from({ length: 40 }, (_, i) => ({
      mode: i % 3 === 0 ? ('deduct' as const) : ('add' as const),
      quantity: (i % 7) + 1,
    }));
    const results = await Promise.allSettled(
      moves.map((move) =>
        handleStockCommand(store, { type: 'AdjustStock', ...at, ...move, refuseNegative: true }, context()),
      ),
    );
    expect(results.every((result) => result.status === 'fulfilled')).toBe(true);
    const expected =
      100 + moves.reduce((sum, move) => sum + (move.mode === 'add' ? move.quantity : -move.quantity), 0);
    const events = await eventsOf(at.masterCodeId, at.warehouseId);
    expect(events).toHaveLength(41);
    expect((events.at(-1)!.data as { onHand: number }).onHand).toBe(expected);
    // The ledger chains: each event's figures follow from the one before.
    let onHand = 0;
    for (const event of events) {
      const data = event.data as { change: number; onHand: number };
      expect(data.onHand).toBe(onHand + data.change);
      onHand = data.onHand;
    }
  });

  it('refuses, under contention, exactly the deductions that would go below zero', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-1' };
    await handleStockCommand(store, { type: 'ReceiveStock', ...at, quantity: 10 }, context());
    const results = await Promise.allSettled(
      Array.from({ length: 15 }, () =>
        handleStockCommand(
          store,
          { type: 'AdjustStock', ...at, mode: 'deduct', quantity: 1, refuseNegative: true },
          context(),
        ),
      ),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    expect(refused).toHaveLength(5);
    for (const r of refused)
      expect(((r as PromiseRejectedResult).reason as DomainError).code).toBe('NEGATIVE_STOCK');
    const events = await eventsOf(at.masterCodeId, at.warehouseId);
    expect((events.at(-1)!.data as { onHand: number }).onHand).toBe(0);
  });

  it('moves stock once for a command retried with the same idempotency key, even concurrently and later', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-2' };
    const key = randomUUID();
    const command = { type: 'ReceiveStock' as const, ...at, quantity: 7 };
    const [first, second] = await Promise.all([
      handleStockCommand(store, command, context(key)),
      handleStockCommand(store, command, context(key)),
    ]);
    expect(first.position).toEqual(second.position);
    await handleStockCommand(
      store,
      { type: 'AdjustStock', ...at, mode: 'deduct', quantity: 7, refuseNegative: true },
      context(),
    );
    // Long after, with the stock now at zero: the retry answers as the first time and changes nothing.
    const retry = await handleStockCommand(store, command, context(key));
    expect(retry.replayed).toBe(true);
    expect(retry.position).toEqual(first.position);
    const events = await eventsOf(at.masterCodeId, at.warehouseId);
    expect(events.map((event) => event.type)).toEqual(['StockReceived', 'StockAdjusted']);
  });

  /** Appends straight to the stream the event `command` would record on `state`, whatever the stream holds. */
  async function appendDecided(
    at: { masterCodeId: string; warehouseId: string },
    command: Parameters<typeof decide>[0],
    state: StockState,
  ) {
    const [event] = decide(command, state) as [StockEvent];
    await store.append(
      stockStreamId(tenantId, at.masterCodeId, at.warehouseId),
      [{ type: event.type, data: event.data, metadata: { tenantId, occurredAt: new Date().toISOString() } }],
      { expectedRevision: 'any' },
    );
    return event;
  }

  it('answers as a replay, not a refusal, when the same command lands from another runner between its look-up and its read', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-1' };
    await handleStockCommand(store, { type: 'ReceiveStock', ...at, quantity: 10 }, context());
    await handleStockCommand(store, { type: 'ReserveStock', ...at, quantity: 4 }, context());
    const release = { type: 'ReleaseStock' as const, ...at, quantity: 4 };
    const same = context();
    // The other runner's release lands exactly after this one looked for its event and before it reads the stock:
    // the stock it then reads has nothing left to release.
    let raced = false;
    const racing: EventStore = Object.create(store, {
      readLastEvent: {
        value: async (stream: string) => {
          if (!raced) {
            raced = true;
            expect((await handleStockCommand(store, release, same)).replayed).toBe(false);
          }
          return store.readLastEvent(stream);
        },
      },
    });
    const result = await handleStockCommand(racing, release, same);
    expect(raced).toBe(true);
    expect(result.replayed).toBe(true);
    const events = await eventsOf(at.masterCodeId, at.warehouseId);
    expect(events.map((event) => event.type)).toEqual(['StockReceived', 'StockReserved', 'StockReleased']);
  });

  it('decides from the figures of the last event, not from a replay of the movements', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-4' };
    await handleStockCommand(store, { type: 'ReceiveStock', ...at, quantity: 10 }, context());
    // Received 5, yet 100 on hand and 3 reserved after it: summing the changes would say 15 and 0.
    await appendDecided(
      at,
      { type: 'ReceiveStock', ...at, quantity: 5 },
      { ...initialState, onHand: 95, reserved: 3 },
    );
    const counted = await handleStockCommand(
      store,
      { type: 'AdjustStock', ...at, mode: 'set', quantity: 40, refuseNegative: true },
      context(),
    );
    expect(counted.event.data).toMatchObject({ change: -60, onHand: 40, reserved: 3 });
    expect(counted.revision).toBe(2n);
  });

  it('reads one event per command however long the stream, and finds a retried command far back', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-5' };
    const key = randomUUID();
    const first = await handleStockCommand(store, { type: 'ReceiveStock', ...at, quantity: 3 }, context(key));
    let state: StockState = evolve(initialState, first.event);
    for (let i = 0; i < 300; i++) {
      state = evolve(state, await appendDecided(at, { type: 'ReceiveStock', ...at, quantity: 1 }, state));
    }
    let read = 0;
    const counting: EventStore = {
      kind: store.kind,
      append: (...args) => store.append(...args),
      awaitVisible: () => store.awaitVisible(),
      async *readStream(...args) {
        for await (const event of store.readStream(...args)) {
          read++;
          yield event;
        }
      },
      readLastEvent: async (stream) => {
        const event = await store.readLastEvent(stream);
        if (event) read++;
        return event;
      },
      findEvent: async (stream, eventId) => {
        const event = await store.findEvent(stream, eventId);
        if (event) read++;
        return event;
      },
      readAll: (opts) => store.readAll(opts),
      subscribe: (opts, handle) => store.subscribe(opts, handle),
      headPosition: () => store.headPosition(),
      close: () => store.close(),
    };
    const adjusted = await handleStockCommand(
      counting,
      { type: 'AdjustStock', ...at, mode: 'deduct', quantity: 4, refuseNegative: true },
      context(),
    );
    expect(adjusted.event.data).toMatchObject({ onHand: 299, change: -4 });
    expect(read).toBe(1);
    read = 0;
    const retry = await handleStockCommand(
      counting,
      { type: 'ReceiveStock', ...at, quantity: 3 },
      context(key),
    );
    expect(retry).toMatchObject({ replayed: true, revision: 0n, position: first.position });
    expect(read).toBe(1);
  });

  it('appends nothing for a refused command', async () => {
    const at = { masterCodeId: randomUUID(), warehouseId: 'wh-3' };
    await expect(
      handleStockCommand(store, { type: 'ReceiveStock', ...at, quantity: 0 }, context()),
    ).rejects.toMatchObject({
      code: 'QUANTITY_NOT_POSITIVE',
    });
    expect(await eventsOf(at.masterCodeId, at.warehouseId)).toEqual([]);
  });
});
