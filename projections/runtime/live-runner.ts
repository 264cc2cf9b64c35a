import type { EventStore, Position, RecordedEvent } from '@infra/eventstore/port';

/** How far past its checkpoint a runner's reads may look before the checkpoint follows (restarts re-read no more). */
const ADVANCE_EVERY = 1000n;

/**
 * Follows the log live from a checkpoint until stopped: what the projection engine and the reactor runner both
 * run for each of theirs. Each round reads where to start (`resume`: a position, or 'wait' to look again later),
 * subscribes from there and hands every batch to `handle`, which answers whether it moved the checkpoint from the
 * position it was given. A batch that could not (another runner moved the checkpoint meanwhile) ends the round,
 * and the next starts again from the checkpoint. A failure is logged and retried after `retryMs`.
 *
 * With `advance`, the checkpoint also moves past events of other types: when the reads have looked ADVANCE_EVERY
 * events beyond it and found none of the runner's types, so that a restart, a catch-up or the
 * health check does not look at them again. `advance` answers like `handle`.
 */
export function followLive(opts: {
  store: Pick<EventStore, 'subscribe'>;
  types: readonly string[];
  batchSize?: number;
  retryMs: number;
  resume(): Promise<Position | null | 'wait'>;
  handle(from: Position | null, batch: RecordedEvent[]): Promise<boolean>;
  advance?(from: Position | null, to: Position): Promise<boolean>;
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
            onCaughtUp: async (position) => {
              const advance = opts.advance;
              if (!advance || moved) return;
              if (from && position.prepare - from.prepare < ADVANCE_EVERY) return;
              if (await advance(from, position)) {
                from = position;
                return;
              }
              moved = true;
              void current.stop();
            },
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
