import type { EventEmitter } from 'node:events';
import { comparePositions, type Position, type RecordedEvent, type Subscription } from './port';

export interface PollingSubscriptionOptions {
  /**
   * A page after `after`, and how far the read looked: up to `scannedTo` (of any type) there is nothing more for
   * this subscriber. A full page looked only as far as its last event.
   */
  read: (
    after: Position | undefined,
    limit: number,
  ) => Promise<{ events: RecordedEvent[]; scannedTo: Position | null }>;
  after: Position | undefined;
  batchSize: number;
  pollIntervalMs: number;
  /** Emits 'append' when new events may be readable. */
  wakeups: EventEmitter;
  handle: (batch: RecordedEvent[]) => Promise<void>;
  /** Told how far the reads have looked when that is past the last event handed over (see SubscribeOptions). */
  onCaughtUp?: (position: Position) => Promise<void>;
}

/**
 * A catch-up-then-live reader: reads full batches back to back, then waits for a wake-up or the poll interval.
 * A wake-up that arrives while it reads is remembered, so none is lost between a read and the wait.
 */
export function runSubscription(options: PollingSubscriptionOptions): Subscription {
  let stopped = false;
  let pending = false;
  let wake: (() => void) | undefined;
  const onAppend = () => {
    pending = true;
    wake?.();
  };
  options.wakeups.on('append', onAppend);

  const loop = async () => {
    let after = options.after;
    while (!stopped) {
      pending = false;
      const { events: batch, scannedTo } = await options.read(after, options.batchSize);
      if (stopped) break;
      if (batch.length > 0) {
        await options.handle(batch);
        after = batch.at(-1)!.position;
        if (batch.length === options.batchSize) continue;
      }
      // Nothing more of its types up to scannedTo: the next read starts there, not at the last event handed over
      // (which, for a subscriber to rare types, may lie a whole log behind).
      if (scannedTo && (!after || comparePositions(scannedTo, after) > 0) && !stopped) {
        after = scannedTo;
        await options.onCaughtUp?.(scannedTo);
      }
      if (pending || stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, options.pollIntervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  };

  const done = loop().finally(() => options.wakeups.off('append', onAppend));
  return {
    done,
    async stop() {
      stopped = true;
      wake?.();
      await done.catch(() => undefined);
    },
  };
}
