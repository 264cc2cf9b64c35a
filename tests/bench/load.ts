import { performance } from 'node:perf_hooks';
import type { CpuSplit } from './cpu';
import { log } from './report';

/** One operation of one writer (an INSERT, an append); a writer runs its operations one after another. */
export type Operation = () => Promise<void>;

export interface Timed {
  operations: number;
  seconds: number;
  perSec: number;
}

/**
 * Runs all writers at once, each one operation after another, until `seconds` have passed and each has done at
 * least `minPerWriter`; then divides the operations by the wall time from the first start to the last finish.
 * The same driver serves every contender, so they all see the same concurrency for the same time.
 */
export async function runWriters(
  writers: readonly Operation[],
  opts: { seconds: number; minPerWriter?: number },
): Promise<Timed> {
  const started = performance.now();
  const deadline = started + opts.seconds * 1000;
  const minimum = opts.minPerWriter ?? 0;
  const counts = await Promise.all(
    writers.map(async (operation) => {
      let done = 0;
      while (done < minimum || performance.now() < deadline) {
        await operation();
        done++;
      }
      return done;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const operations = counts.reduce((a, b) => a + b, 0);
  return { operations, seconds, perSec: operations / seconds };
}

export async function timed<T>(run: () => Promise<T>): Promise<{ value: T; seconds: number }> {
  const started = performance.now();
  const value = await run();
  return { value, seconds: (performance.now() - started) / 1000 };
}

/** The value at share `p` of an ascending list (NaN for none). */
export const percentile = (sorted: readonly number[], p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * The machine may be shared: when other processes took more than `maxOthers` of a core during an attempt, the
 * attempt is made again (at most `attempts` times in all) and the least disturbed one is kept. The choice looks at
 * the disturbance only, never at the figure, and the same rule applies to every contender.
 */
export async function leastDisturbed<T extends { cpu: CpuSplit }>(
  what: string,
  attempt: (n: number) => Promise<T>,
  opts: { attempts?: number; maxOthers?: number } = {},
): Promise<T & { attempts: number }> {
  const attempts = opts.attempts ?? 3;
  const maxOthers = opts.maxOthers ?? 0.25;
  let best: { result: T; others: number } | undefined;
  let n = 0;
  while (n < attempts) {
    const result = await attempt(n++);
    const others = othersShare(result.cpu);
    if (!best || others < best.others) best = { result, others };
    if (others <= maxOthers) break;
    if (n < attempts)
      log(`${what}: other processes used ${Math.round(others * 100)}% of a core; measuring again`);
  }
  return { ...best!.result, attempts: n };
}

/** CPU used by other processes during a phase, in cores (0 when unknown). */
export function othersShare(split: CpuSplit): number {
  return split.others === undefined ? 0 : split.others / split.wall;
}
