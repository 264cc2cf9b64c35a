import { spawnSync } from 'node:child_process';
import {
  type AllStreamResolvedEvent,
  ANY,
  NO_STREAM,
  type ResolvedEvent,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError } from '@infra/eventstore/errors';
import {
  deliverInBatches,
  EventStoreDbEventStore,
  fromClientCurrentRevision,
  matchesTypes,
  runResubscribingSubscription,
  subscriptionFilter,
  toClientExpectedRevision,
  toEsdbConnectionString,
  toRecordedEvent,
  toWrongExpectedRevision,
} from '@infra/eventstore/esdb';
import type { Position, RecordedEvent } from '@infra/eventstore/port';
import { waitFor } from '@tests/support/wait';
import { describe, expect, it } from 'vitest';
import { eventStoreContract } from './eventstore.contract';

// ---- the contract, against a real server when one can be had ----

const IMAGE = 'kurrentplatform/kurrentdb:25.0';
const serverUrl = process.env.EVENTSTORE_URL || undefined;
// Decided at load, synchronously, so that the describe below is skipped cleanly rather than failing in a hook.
const dockerAnswers =
  serverUrl === undefined && spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 15_000 }).status === 0;
const serverAvailable = serverUrl !== undefined || dockerAnswers;
if (!serverAvailable) {
  console.log(
    'eventstoredb contract: skipped the EventStoreDB adapter (no EVENTSTORE_URL and no Docker engine)',
  );
}

async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  if (serverUrl !== undefined) return { url: serverUrl, stop: async () => undefined };
  const { KurrentDbContainer } = await import('@testcontainers/kurrentdb');
  const container = await new KurrentDbContainer(IMAGE).start();
  return {
    url: container.getConnectionString(),
    stop: async () => {
      await container.stop();
    },
  };
}

describe.skipIf(!serverAvailable)('eventstoredb adapter on a server', () => {
  eventStoreContract('eventstoredb', async (registry) => {
    const server = await startServer();
    try {
      const store = EventStoreDbEventStore.fromConnectionString(server.url, registry);
      return {
        store,
        async cleanup() {
          await store.close();
          await server.stop();
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  });
});

// ---- the pieces that need no server ----

const at = (n: number): Position => ({ commit: BigInt(n) * 100n, prepare: BigInt(n) * 100n - 7n });

function recorded(n: number): RecordedEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    stream: 'probe-t1.a',
    revision: BigInt(n - 1),
    type: 'Counted',
    data: { n },
    metadata: { tenantId: 't1', occurredAt: '2026-11-21T10:00:00.000Z' },
    position: at(n),
    createdAt: new Date(0),
  };
}

/** A promise with its resolve function, to hold a step of a test until another one says so. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

describe('eventstoredb adapter: expected revisions and conflicts', () => {
  it("maps a revision to itself and 'no_stream' / 'any' to the client's constants", () => {
    expect(toClientExpectedRevision(7n)).toBe(7n);
    expect(toClientExpectedRevision(0n)).toBe(0n);
    expect(toClientExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toClientExpectedRevision('any')).toBe(ANY);
    expect(() => toClientExpectedRevision(-1n)).toThrow(RangeError);
  });

  it("reads the client's current revision as a bigint, or 'no_stream' (also when an older server says -1)", () => {
    expect(fromClientCurrentRevision(3n)).toBe(3n);
    expect(fromClientCurrentRevision(0n)).toBe(0n);
    expect(fromClientCurrentRevision(NO_STREAM)).toBe('no_stream');
    expect(fromClientCurrentRevision(-1n)).toBe('no_stream');
  });

  it("turns the client's WrongExpectedVersionError into ours, keeping the caller's expected revision", () => {
    const existing = new WrongExpectedVersionError(undefined, {
      streamName: 'probe-t1.a',
      expected: NO_STREAM,
      current: 4n,
    });
    const conflict = toWrongExpectedRevision('probe-t1.a', 'no_stream', existing);
    expect(conflict).toBeInstanceOf(WrongExpectedRevisionError);
    expect(conflict).toMatchObject({ stream: 'probe-t1.a', expected: 'no_stream', actual: 4n });

    const missing = new WrongExpectedVersionError(undefined, {
      streamName: 'probe-t1.b',
      expected: 2n,
      current: NO_STREAM,
    });
    expect(toWrongExpectedRevision('probe-t1.b', 2n, missing)).toMatchObject({
      stream: 'probe-t1.b',
      expected: 2n,
      actual: 'no_stream',
    });
  });

  it('accepts the kurrentdb:// spelling of a connection string', () => {
    expect(toEsdbConnectionString('kurrentdb://localhost:2113?tls=false')).toBe(
      'esdb://localhost:2113?tls=false',
    );
    expect(toEsdbConnectionString('kurrentdb+discover://a:2113,b:2113')).toBe(
      'esdb+discover://a:2113,b:2113',
    );
    expect(toEsdbConnectionString('esdb://localhost:2113?tls=false')).toBe('esdb://localhost:2113?tls=false');
  });
});

describe('eventstoredb adapter: recorded events', () => {
  const created = new Date('2026-11-21T10:00:01.234Z');
  const metadata = { tenantId: 't1', userId: 'u1', occurredAt: '2026-11-21T10:00:00.000Z' };
  const fromAll: AllStreamResolvedEvent = {
    event: {
      streamId: 'stock-t1.sku-1',
      id: '5f1c1f7e-8a7b-4c1e-9a57-0d6c5b7b2f10',
      isJson: true,
      revision: 4n,
      type: 'StockAdjusted',
      created,
      data: { delta: -2 },
      metadata,
      position: { commit: 1200n, prepare: 1180n },
    },
    commitPosition: 1200n,
  };

  it('converts a JSON event with every field of the port', () => {
    expect(toRecordedEvent(fromAll)).toEqual({
      id: '5f1c1f7e-8a7b-4c1e-9a57-0d6c5b7b2f10',
      stream: 'stock-t1.sku-1',
      revision: 4n,
      type: 'StockAdjusted',
      data: { delta: -2 },
      metadata,
      position: { commit: 1200n, prepare: 1180n },
      createdAt: created,
    });
  });

  it('leaves out what the port never writes: system events, binary events, events without metadata, dangling links', () => {
    const event = fromAll.event!;
    const system: AllStreamResolvedEvent = { event: { ...event, type: '$statsCollected' } };
    const link: AllStreamResolvedEvent = { event: { ...event, type: '$>' } };
    const binary: AllStreamResolvedEvent = {
      event: { ...event, isJson: false, data: new TextEncoder().encode('{"delta":-2}') },
    };
    const noMetadata: AllStreamResolvedEvent = { event: { ...event, metadata: undefined } };
    const rawMetadata: AllStreamResolvedEvent = { event: { ...event, metadata: new Uint8Array([1, 2]) } };
    for (const resolved of [system, link, binary, noMetadata, rawMetadata, { commitPosition: 1200n }]) {
      expect(toRecordedEvent(resolved)).toBeUndefined();
    }
  });

  it('refuses an event read without a position (servers before 22.6) rather than invent one', () => {
    const { position: _, ...withoutPosition } = fromAll.event!;
    const fromStream: ResolvedEvent = { event: withoutPosition };
    expect(() => toRecordedEvent(fromStream)).toThrow(/without a position/);
  });
});

describe('eventstoredb adapter: type filters', () => {
  it('subscribes to exactly the given types, with regex characters taken literally', () => {
    const filter = subscriptionFilter(['Counted', 'Stock.Adjusted']);
    expect(filter.filterOn).toBe('eventType');
    const regex = new RegExp((filter as { regex: string }).regex);
    expect(['Counted', 'Stock.Adjusted'].filter((t) => regex.test(t))).toHaveLength(2);
    for (const other of ['CountedX', 'XCounted', 'StockXAdjusted', 'Noted', '$>']) {
      expect(regex.test(other), other).toBe(false);
    }
  });

  it('subscribes to everything but system events without types, and to nothing with an empty list', () => {
    const all = new RegExp((subscriptionFilter(undefined) as { regex: string }).regex);
    expect(all.test('Counted')).toBe(true);
    expect(all.test('$statsCollected')).toBe(false);
    const none = new RegExp((subscriptionFilter([]) as { regex: string }).regex);
    expect(['Counted', '', '$>'].some((t) => none.test(t))).toBe(false);
  });

  it('matches types on the client the same way', () => {
    expect(matchesTypes('Counted', undefined)).toBe(true);
    expect(matchesTypes('$>', undefined)).toBe(false);
    expect(matchesTypes('Counted', ['Noted', 'Counted'])).toBe(true);
    expect(matchesTypes('CountedX', ['Counted'])).toBe(false);
    expect(matchesTypes('Counted', [])).toBe(false);
  });
});

describe('eventstoredb adapter: delivery in batches', () => {
  it('hands over what arrived while the handler ran, in order, up to batchSize, one call at a time', async () => {
    const handlerEntered = gate();
    const allProduced = gate();
    const release = gate();
    async function* source() {
      yield 1;
      await handlerEntered.promise;
      yield* [2, 3, 4, 5, 6];
      allProduced.open();
    }
    const batches: number[][] = [];
    let running = 0;
    let overlapped = false;
    const delivered = deliverInBatches(
      source(),
      async (batch) => {
        if (running++ > 0) overlapped = true;
        batches.push(batch);
        if (batches.length === 1) {
          handlerEntered.open();
          await release.promise;
        }
        await new Promise((resolve) => setImmediate(resolve));
        running--;
      },
      { batchSize: 3 },
    );
    await allProduced.promise;
    expect(batches).toEqual([[1]]);
    release.open();
    await delivered;
    expect(batches).toEqual([[1], [2, 3, 4], [5, 6]]);
    expect(overlapped).toBe(false);
  });

  it('turns a burst into full batches', async () => {
    async function* burst() {
      for (let n = 1; n <= 10; n++) yield n;
    }
    const batches: number[][] = [];
    await deliverInBatches(
      burst(),
      async (batch) => {
        batches.push(batch);
      },
      { batchSize: 4 },
    );
    expect(batches).toEqual([
      [1, 2, 3, 4],
      [5, 6, 7, 8],
      [9, 10],
    ]);
  });

  it("rejects with the handler's error, calls it no more and closes the source", async () => {
    let closed = false;
    async function* endless() {
      try {
        for (let n = 1; ; n++) yield n;
      } finally {
        closed = true;
      }
    }
    const failure = new Error('projection failed');
    let calls = 0;
    await expect(
      deliverInBatches(
        endless(),
        async () => {
          calls++;
          if (calls === 2) throw failure;
        },
        { batchSize: 5 },
      ),
    ).rejects.toBe(failure);
    await waitFor(() => closed);
    expect(calls).toBe(2);
  });

  it("delivers what arrived before the source's error, then rejects with it", async () => {
    const dropped = new Error('connection reset');
    async function* failing() {
      yield* [1, 2, 3];
      throw dropped;
    }
    const seen: number[] = [];
    await expect(
      deliverInBatches(
        failing(),
        async (batch) => {
          seen.push(...batch);
        },
        { batchSize: 2 },
      ),
    ).rejects.toBe(dropped);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('stops after the running handler when the signal aborts, though more has arrived', async () => {
    const controller = new AbortController();
    const release = gate();
    async function* many() {
      for (let n = 1; n <= 100; n++) yield n;
    }
    const batches: number[][] = [];
    const delivered = deliverInBatches(
      many(),
      async (batch) => {
        batches.push(batch);
        controller.abort();
        await release.promise;
      },
      { batchSize: 10, signal: controller.signal },
    );
    let settled = false;
    void delivered.then(() => {
      settled = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    release.open();
    await delivered;
    expect(batches).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]]);
  });

  it('refuses a batch size below one', async () => {
    async function* empty() {}
    await expect(deliverInBatches(empty(), async () => undefined, { batchSize: 0 })).rejects.toThrow(
      RangeError,
    );
  });
});

describe('eventstoredb adapter: resubscribing', () => {
  it('resumes after a drop from the last delivered position, skipping the event at that position', async () => {
    const opened: (Position | undefined)[] = [];
    const drops: unknown[] = [];
    const dropped = new Error('connection reset');
    const received: RecordedEvent[] = [];
    let running = false;
    let overlapped = false;
    const subscription = runResubscribingSubscription({
      async *open(after, signal) {
        opened.push(after);
        if (opened.length === 1) {
          yield* [recorded(1), recorded(2), recorded(3)];
          throw dropped;
        }
        // The server may include the event at the position it resumes from.
        yield* [recorded(3), recorded(4), recorded(5)];
        await untilAborted(signal);
      },
      after: undefined,
      batchSize: 2,
      handle: async (batch) => {
        if (running) overlapped = true;
        running = true;
        await new Promise((resolve) => setImmediate(resolve));
        received.push(...batch);
        running = false;
      },
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
      onDrop: (error) => drops.push(error),
    });
    await waitFor(() => received.length >= 5);
    await subscription.stop();
    await expect(subscription.done).resolves.toBeUndefined();
    expect(received.map((e) => e.data)).toEqual([1, 2, 3, 4, 5].map((n) => ({ n })));
    expect(opened).toEqual([undefined, at(3)]);
    expect(drops).toEqual([dropped]);
    expect(overlapped).toBe(false);
  });

  it('starts after the given position', async () => {
    const received: RecordedEvent[] = [];
    const subscription = runResubscribingSubscription({
      async *open(_after, signal) {
        yield* [recorded(1), recorded(2), recorded(3)];
        await untilAborted(signal);
      },
      after: at(2),
      batchSize: 10,
      handle: async (batch) => {
        received.push(...batch);
      },
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
    });
    await waitFor(() => received.length >= 1);
    await subscription.stop();
    expect(received.map((e) => e.data)).toEqual([{ n: 3 }]);
  });

  it('waits longer after each drop without progress, up to the maximum', async () => {
    const delays: number[] = [];
    const subscription = runResubscribingSubscription({
      // biome-ignore lint/correctness/useYield: a source that fails before its first event
      async *open() {
        throw new Error('unavailable');
      },
      after: undefined,
      batchSize: 10,
      handle: async () => undefined,
      retryDelayMs: 1,
      maxRetryDelayMs: 4,
      onDrop: (_error, retryInMs) => delays.push(retryInMs),
    });
    await waitFor(() => delays.length >= 5);
    await subscription.stop();
    expect(delays.slice(0, 5)).toEqual([1, 2, 4, 4, 4]);
  });

  it('rejects done when the handler throws, and closes the source without opening it again', async () => {
    const failure = new Error('projection failed');
    const signals: AbortSignal[] = [];
    const subscription = runResubscribingSubscription({
      async *open(_after, signal) {
        signals.push(signal);
        yield recorded(1);
        await untilAborted(signal);
      },
      after: undefined,
      batchSize: 10,
      handle: async () => {
        throw failure;
      },
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
    });
    await expect(subscription.done).rejects.toBe(failure);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(true);
    await expect(subscription.stop()).resolves.toBeUndefined();
  });

  it('stops only once the running handler has finished, and closes the source', async () => {
    const release = gate();
    const entered = gate();
    const signals: AbortSignal[] = [];
    let handled = 0;
    const subscription = runResubscribingSubscription({
      async *open(_after, signal) {
        signals.push(signal);
        yield* [recorded(1), recorded(2)];
        await untilAborted(signal);
      },
      after: undefined,
      batchSize: 1,
      handle: async () => {
        handled++;
        entered.open();
        await release.promise;
      },
      retryDelayMs: 1,
      maxRetryDelayMs: 1,
    });
    await entered.promise;
    let stopped = false;
    const stopping = subscription.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    release.open();
    await stopping;
    await expect(subscription.done).resolves.toBeUndefined();
    expect(handled).toBe(1);
    expect(signals.every((s) => s.aborted)).toBe(true);
  });
});
