import { randomUUID } from 'node:crypto';
import { EventValidationError, WrongExpectedRevisionError } from '@infra/eventstore/errors';
import {
  comparePositions,
  type EventStore,
  type NewEvent,
  type Position,
  type RecordedEvent,
  streamId,
} from '@infra/eventstore/port';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { waitFor } from '@tests/support/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * The behaviour every EventStore adapter must show, run against a real server. Type names carry a per-run
 * suffix so that runs against a long-lived server (EventStoreDB) cannot see each other's events.
 */
export interface ContractTarget {
  store: EventStore;
  cleanup(): Promise<void>;
}

export function eventStoreContract(
  name: string,
  open: (registry: EventSchemaRegistry) => Promise<ContractTarget>,
) {
  describe(`event store contract: ${name}`, () => {
    const run = randomUUID().replace(/-/g, '').slice(0, 10);
    const Counted = `Counted${run}`;
    const Noted = `Noted${run}`;
    const registry = new EventSchemaRegistry()
      .register(Counted, z.object({ n: z.number().int(), writer: z.number().int().optional() }).strict())
      .register(Noted, z.object({ note: z.string().min(1) }).strict());
    const tenantId = `t${run}`;
    let target: ContractTarget;
    let store: EventStore;

    const stream = (key = randomUUID()) => streamId('probe', tenantId, key);
    const meta = (extra: Partial<NewEvent['metadata']> = {}) => ({
      tenantId,
      userId: 'user-1',
      occurredAt: '2026-11-21T10:00:00.000Z',
      ...extra,
    });
    const counted = (n: number, writer?: number, id?: string): NewEvent => ({
      id,
      type: Counted,
      data: writer === undefined ? { n } : { n, writer },
      metadata: meta({ commandId: `cmd-${n}` }),
    });
    const noted = (note: string): NewEvent => ({ type: Noted, data: { note }, metadata: meta() });
    const readAllOf = async (s: string, opts?: Parameters<EventStore['readStream']>[1]) => {
      const events: RecordedEvent[] = [];
      for await (const event of store.readStream(s, opts)) events.push(event);
      return events;
    };

    beforeAll(async () => {
      target = await open(registry);
      store = target.store;
    });
    afterAll(async () => {
      await target?.cleanup();
    });

    it('appends and reads a stream back with revisions, data and metadata', async () => {
      const s = stream();
      const first = await store.append(s, [counted(1), counted(2)], { expectedRevision: 'no_stream' });
      expect(first.nextRevision).toBe(1n);
      const second = await store.append(s, [noted('hello')], { expectedRevision: 1n });
      expect(second.nextRevision).toBe(2n);
      expect(comparePositions(second.position, first.position)).toBe(1);

      const events = await readAllOf(s);
      expect(events.map((e) => [e.revision, e.type, e.data])).toEqual([
        [0n, Counted, { n: 1 }],
        [1n, Counted, { n: 2 }],
        [2n, Noted, { note: 'hello' }],
      ]);
      expect(events[0]!.metadata).toEqual(meta({ commandId: 'cmd-1' }));
      expect(events[0]!.stream).toBe(s);
      expect(events[2]!.position).toEqual(second.position);
      expect(events[0]!.createdAt).toBeInstanceOf(Date);
    });

    it('refuses a wrong expected revision with a typed conflict and appends nothing', async () => {
      const s = stream();
      await store.append(s, [counted(1), counted(2)], { expectedRevision: 'no_stream' });
      const refused = store.append(s, [counted(3)], { expectedRevision: 0n });
      await expect(refused).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await expect(refused).rejects.toMatchObject({ stream: s, expected: 0n, actual: 1n });
      expect((await readAllOf(s)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 2 }]);
    });

    it('treats no_stream on an existing stream, and a revision on a missing one, as conflicts', async () => {
      const s = stream();
      await store.append(s, [counted(1)], { expectedRevision: 'no_stream' });
      await expect(store.append(s, [counted(2)], { expectedRevision: 'no_stream' })).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 0n,
      });
      const missing = stream();
      await expect(store.append(missing, [counted(1)], { expectedRevision: 0n })).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 'no_stream',
      });
      expect(await readAllOf(missing)).toEqual([]);
      expect(await readAllOf(s)).toHaveLength(1);
    });

    it("appends with 'any' whatever the revision", async () => {
      const s = stream();
      expect((await store.append(s, [counted(1)], { expectedRevision: 'any' })).nextRevision).toBe(0n);
      expect((await store.append(s, [counted(2)], { expectedRevision: 'any' })).nextRevision).toBe(1n);
    });

    it('stores an event id appended twice once, and answers the retry as the first append', async () => {
      const s = stream();
      const ids = [randomUUID(), randomUUID()];
      const batch = [counted(1, undefined, ids[0]), counted(2, undefined, ids[1])];
      const first = await store.append(s, batch, { expectedRevision: 'no_stream' });
      const retried = await store.append(s, batch, { expectedRevision: 'no_stream' });
      expect(retried.nextRevision).toBe(first.nextRevision);
      const events = await readAllOf(s);
      expect(events.map((e) => e.id)).toEqual(ids);
    });

    it('refuses an event that fails its schema, an unknown type or bad metadata before anything is stored', async () => {
      const s = stream();
      const bad: NewEvent[][] = [
        [counted(1), { type: Counted, data: { n: 'one' }, metadata: meta() }],
        [{ type: Noted, data: { note: '' }, metadata: meta() }],
        [{ type: `Unknown${run}`, data: {}, metadata: meta() }],
        [{ type: Noted, data: { note: 'x' }, metadata: { ...meta(), tenantId: '' } }],
        [{ type: Noted, data: { note: 'x' }, metadata: { ...meta(), occurredAt: 'yesterday' } }],
        [{ id: 'not-a-uuid', type: Noted, data: { note: 'x' }, metadata: meta() }],
      ];
      for (const events of bad) {
        await expect(store.append(s, events, { expectedRevision: 'any' })).rejects.toBeInstanceOf(
          EventValidationError,
        );
      }
      expect(await readAllOf(s)).toEqual([]);
      await expect(store.append(s, [counted(1)], { expectedRevision: 'no_stream' })).resolves.toMatchObject({
        nextRevision: 0n,
      });
    });

    it('reads a stream from a revision and up to a position', async () => {
      const s = stream();
      await store.append(s, [counted(0), counted(1), counted(2)], { expectedRevision: 'no_stream' });
      const middle = await store.append(s, [counted(3)], { expectedRevision: 2n });
      await store.append(s, [counted(4), counted(5)], { expectedRevision: 3n });
      expect((await readAllOf(s, { fromRevision: 4n })).map((e) => e.data)).toEqual([{ n: 4 }, { n: 5 }]);
      expect((await readAllOf(s, { toPosition: middle.position })).map((e) => e.revision)).toEqual([
        0n,
        1n,
        2n,
        3n,
      ]);
      expect(await readAllOf(s, { fromRevision: 9n })).toEqual([]);
    });

    it('reads the last event of a stream, and null for a missing one', async () => {
      expect(await store.readLastEvent(stream())).toBeNull();
      const s = stream();
      const ids = Array.from({ length: 150 }, () => randomUUID());
      await store.append(
        s,
        ids.map((id, n) => counted(n, undefined, id)),
        { expectedRevision: 'no_stream' },
      );
      const appended = await store.append(s, [noted('last')], { expectedRevision: 149n });
      await store.append(stream(), [counted(999)], { expectedRevision: 'no_stream' });
      const last = await store.readLastEvent(s);
      expect(last).toEqual((await readAllOf(s)).at(-1));
      expect(last).toMatchObject({ stream: s, revision: 150n, type: Noted, data: { note: 'last' } });
      expect(last!.position).toEqual(appended.position);
    });

    it('finds an event by id in its own stream only', async () => {
      const s = stream();
      const other = stream();
      const ids = Array.from({ length: 150 }, () => randomUUID());
      await store.append(
        s,
        ids.map((id, n) => counted(n, undefined, id)),
        { expectedRevision: 'no_stream' },
      );
      const elsewhere = randomUUID();
      await store.append(other, [counted(1, undefined, elsewhere)], { expectedRevision: 'no_stream' });
      const events = await readAllOf(s);
      // The newest, one in the middle, and the oldest (a scan from the end reaches it last).
      for (const revision of [149, 75, 0]) {
        expect(await store.findEvent(s, ids[revision]!)).toEqual(events[revision]);
      }
      expect(await store.findEvent(s, randomUUID())).toBeNull();
      expect(await store.findEvent(s, elsewhere)).toBeNull();
      expect(await store.findEvent(other, elsewhere)).toMatchObject({ id: elsewhere, stream: other });
      expect(await store.findEvent(stream(), ids[0]!)).toBeNull();
    });

    it('reads the log after a position, with a limit and a type filter', async () => {
      const s1 = stream();
      const s2 = stream();
      const start = await store.append(s1, [counted(1)], { expectedRevision: 'no_stream' });
      await store.append(s2, [noted('a'), counted(2)], { expectedRevision: 'no_stream' });
      await store.append(s1, [noted('b')], { expectedRevision: 0n });
      const types = [Counted, Noted];
      const after = await waitFor(async () => {
        const events = await store.readAll({ after: start.position, limit: 100, types });
        return events.length === 3 ? events : undefined;
      });
      expect(after.map((e) => e.data)).toEqual([{ note: 'a' }, { n: 2 }, { note: 'b' }]);
      expect(await store.readAll({ after: start.position, limit: 2, types })).toHaveLength(2);
      const notes = await store.readAll({ after: start.position, limit: 100, types: [Noted] });
      expect(notes.map((e) => e.data)).toEqual([{ note: 'a' }, { note: 'b' }]);
      const head = await store.headPosition();
      expect(head && comparePositions(head, after.at(-1)!.position)).toBeGreaterThanOrEqual(0);
    });

    it('delivers every event once, in position order, to a live subscriber while 8 writers append 2,000 each', async () => {
      const writers = 8;
      const perWriter = 2000;
      const start = await store.headPosition();
      const received: RecordedEvent[] = [];
      const subscription = store.subscribe({ after: start ?? undefined, types: [Counted] }, async (batch) => {
        received.push(...batch.filter((e) => e.metadata.tenantId === tenantId));
      });
      const streams = Array.from({ length: writers }, () => stream());
      await Promise.all(
        streams.map(async (s, writer) => {
          let revision: bigint | 'no_stream' = 'no_stream';
          for (let n = 0; n < perWriter; n++) {
            const result = await store.append(s, [counted(n, writer)], { expectedRevision: revision });
            revision = result.nextRevision;
          }
        }),
      );
      const fromWriters = () => received.filter((e) => streams.includes(e.stream));
      await waitFor(() => fromWriters().length >= writers * perWriter || undefined, { timeoutMs: 60_000 });
      await subscription.stop();

      const events = fromWriters();
      expect(events).toHaveLength(writers * perWriter);
      expect(new Set(events.map((e) => e.id)).size).toBe(writers * perWriter);
      for (let i = 1; i < received.length; i++) {
        expect(comparePositions(received[i - 1]!.position, received[i]!.position)).toBe(-1);
      }
      for (const [writer, s] of streams.entries()) {
        const ofWriter = events
          .filter((e) => e.stream === s)
          .map((e) => (e.data as { n: number; writer: number }).n);
        expect(ofWriter).toEqual(Array.from({ length: perWriter }, (_, n) => n));
        expect(
          events.filter((e) => e.stream === s).every((e) => (e.data as { writer: number }).writer === writer),
        ).toBe(true);
      }
    });

    it('continues a stopped subscription from its saved position with no gap and no duplicate', async () => {
      const s = stream();
      const start = await store.headPosition();
      const seen: RecordedEvent[] = [];
      let saved: Position | undefined = start ?? undefined;
      const collect = async (batch: RecordedEvent[]) => {
        for (const event of batch) if (event.stream === s) seen.push(event);
        saved = batch.at(-1)!.position;
      };

      const first = store.subscribe({ after: saved, types: [Counted], batchSize: 7 }, collect);
      let revision: bigint | 'no_stream' = 'no_stream';
      for (let n = 0; n < 50; n++)
        revision = (await store.append(s, [counted(n)], { expectedRevision: revision })).nextRevision;
      await waitFor(() => seen.length >= 20 || undefined);
      await first.stop();
      const countAtStop = seen.length;

      // Written while nobody listens.
      for (let n = 50; n < 80; n++)
        revision = (await store.append(s, [counted(n)], { expectedRevision: revision })).nextRevision;
      const second = store.subscribe({ after: saved, types: [Counted], batchSize: 7 }, collect);
      for (let n = 80; n < 100; n++)
        revision = (await store.append(s, [counted(n)], { expectedRevision: revision })).nextRevision;
      await waitFor(() => seen.length >= 100 || undefined);
      await second.stop();

      expect(countAtStop).toBeGreaterThanOrEqual(20);
      expect(seen.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 100 }, (_, n) => n));
    });

    it('filters a subscription by event type', async () => {
      const s = stream();
      const start = await store.headPosition();
      const notes: RecordedEvent[] = [];
      const subscription = store.subscribe({ after: start ?? undefined, types: [Noted] }, async (batch) => {
        notes.push(...batch.filter((e) => e.stream === s));
      });
      await store.append(s, [counted(1), noted('one'), counted(2)], { expectedRevision: 'no_stream' });
      await store.append(s, [noted('two')], { expectedRevision: 2n });
      await waitFor(() => notes.length >= 2 || undefined);
      await subscription.stop();
      expect(notes.map((e) => [e.type, e.data])).toEqual([
        [Noted, { note: 'one' }],
        [Noted, { note: 'two' }],
      ]);
    });

    it("gives racing writers with 'any' one revision each, losing none", async () => {
      const s = stream();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          store.append(s, [counted(i), counted(100 + i)], { expectedRevision: 'any' }),
        ),
      );
      expect(new Set(results.map((r) => r.nextRevision)).size).toBe(12);
      const events = await readAllOf(s);
      expect(events.map((e) => e.revision)).toEqual(Array.from({ length: 24 }, (_, i) => BigInt(i)));
      // Each writer's two events stay together.
      for (let i = 0; i < 24; i += 2) {
        expect((events[i + 1]!.data as { n: number }).n).toBe((events[i]!.data as { n: number }).n + 100);
      }
    });

    it('lets exactly one of many racing writers win each revision', async () => {
      const s = stream();
      await store.append(s, [counted(0)], { expectedRevision: 'no_stream' });
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => store.append(s, [counted(i + 1)], { expectedRevision: 0n })),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(
        lost.every((r) => (r as PromiseRejectedResult).reason instanceof WrongExpectedRevisionError),
      ).toBe(true);
      expect(await readAllOf(s)).toHaveLength(2);
    });
  });
}
