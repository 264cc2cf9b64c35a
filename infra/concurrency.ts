/**
 * Works through `items` with at most `concurrency` at a time, each worker taking the next item as it finishes one
 * (a bounded Promise.all: many reads or calls at once without flooding a pool or a channel's rate limit).
 */
export async function inTurns<T>(
  items: readonly T[],
  work: (item: T) => Promise<void>,
  concurrency = 8,
): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
    }),
  );
}
