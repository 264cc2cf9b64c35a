import type { EventStore, Position, RecordedEvent } from '@infra/eventstore/port';

/**
 * Follows the log live from a checkpoint until stopped: what the projection engine and the reactor runner both
 * run for each of theirs. Each round reads where to start (`resume`: a position, or 'wait' to look again later),
 * subscribes from there and hands every batch to `handle`, which answers whether it moved the checkpoint from the
 * position it was given. A batch that could not (another runner moved the checkpoint meanwhile) ends the round,
 * and the next starts again from the checkpoint. A failure is logged and retried after `retryMs`.
 */
export function followLive(opts: {
  store: Pick<EventStore, 'subscribe'>;
  types: readonly string[];
  batchSize?: number;
  retryMs: number;
  resume(): Promise<Position | null | 'wait'>;
  handle(from: Position | null, batch: RecordedEvent[]): Promise<boolean>;
  onError(error: unknown): void;
}): { stop(): Promise<void> } {
  let stopped = false;
  let subscription: { stop(): Promise<void>; done: Promise<void> } | undefined;
  let sleeper: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  const sleep = () =>
    new Promise<void>((resolve) => {
      sleeper = { timer: setTimeout(resolve, opts.retryMs), resolve };
    });

  const loop = async () => {
    while (!stopped) {
      try {
        const start = await opts.resume();
        if (stopped) break;
        if (start === 'wait') {
          await sleep();
          continue;
        }
        let from = start;
        let moved = false;
        const current = opts.store.subscribe(
          {
            after: from ?? undefined,
            types: opts.types,
            ...(opts.batchSize ? { batchSize: opts.batchSize } : {}),
          },
          async (batch) => {
            if (moved) return;
            if (await opts.handle(from, batch)) {
              from = batch.at(-1)!.position;
              return;
            }
            moved = true;
            void current.stop();
          },
        );
        subscription = current;
        // stop() may have come while this runner was subscribing, and found nothing to stop.
        if (stopped) await current.stop();
        await current.done;
        subscription = undefined;
      } catch (error) {
        subscription = undefined;
        if (stopped) break;
        opts.onError(error);
        await sleep();
      }
    }
  };
  const running = loop();
  return {
    async stop() {
      stopped = true;
      if (sleeper) {
        clearTimeout(sleeper.timer);
        sleeper.resolve();
      }
      await subscription?.stop();
      await running;
    },
  };
}
