import { SYSTEM_TENANT, type SystemStarted } from '@domain/platform/system';
import type { EventStore, NewEvent } from '@infra/eventstore/port';
import { comparePositions, type Position, streamId } from '@infra/eventstore/port';
import { waitFor } from './wait';

/**
 * Appends `count` SystemStarted events spread over `streams` streams and `tenants` tenants, `perAppend` events per
 * append call, in a fixed order: the same arguments always write the same log. Returns once all are readable.
 */
export async function appendSampleEvents(
  store: EventStore,
  opts: { count: number; streams?: number; tenants?: number; perAppend?: number; prefix?: string },
): Promise<{ streams: string[] }> {
  const streamCount = opts.streams ?? 50;
  const tenants = opts.tenants ?? 3;
  const perAppend = opts.perAppend ?? 100;
  const streams = Array.from({ length: streamCount }, (_, i) =>
    streamId(
      'system',
      i % tenants === 0 ? SYSTEM_TENANT : `tenant${i % tenants}`,
      `${opts.prefix ?? 'node'}${i}`,
    ),
  );
  const revisions = new Map<string, bigint | 'no_stream'>();
  let last: Position | undefined;
  let written = 0;
  let turn = 0;
  while (written < opts.count) {
    const stream = streams[turn % streamCount]!;
    const tenantId = stream.slice(stream.indexOf('-') + 1, stream.indexOf('.'));
    const size = Math.min(perAppend, opts.count - written);
    const events: NewEvent<'SystemStarted', SystemStarted>[] = Array.from({ length: size }, (_, i) => ({
      type: 'SystemStarted',
      data: { version: `1.0.${written + i}`, node: 'v20', host: `host-${turn % 7}`, eventStore: 'postgres' },
      metadata: {
        tenantId,
        occurredAt: new Date(Date.UTC(2026, 10, 21, 0, 0, 0, written + i)).toISOString(),
      },
    }));
    const result = await store.append(stream, events, {
      expectedRevision: revisions.get(stream) ?? 'no_stream',
    });
    revisions.set(stream, result.nextRevision);
    last = result.position;
    written += size;
    turn += 1;
  }
  // Readers see an event once every transaction older than it has ended, in any database of the server: another
  // test file's open transaction can hold them back for a moment. Wait until the whole sample is readable.
  await waitFor(async () => {
    const head = await store.headPosition();
    return (head && last && comparePositions(head, last) >= 0) || undefined;
  });
  return { streams };
}
