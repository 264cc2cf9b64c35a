/**
 * The sandbox's sense of time, in ms since the epoch. Token lifetimes, the 5-minute timestamp window, order
 * arrivals and status changes all follow it, so tests move time forward instead of sleeping.
 */
export interface SandboxClock {
  now(): number;
}

export const systemClock: SandboxClock = { now: () => Date.now() };

export interface ManualClock extends SandboxClock {
  /** Moves the clock forward by `ms` (never backward). */
  advance(ms: number): number;
  set(ms: number): number;
}

/** A clock that moves only when told: for tests. */
export function manualClock(startMs: number): ManualClock {
  let current = startMs;
  return {
    now: () => current,
    advance(ms) {
      if (ms < 0) throw new RangeError('manualClock.advance: time only moves forward');
      current += ms;
      return current;
    },
    set(ms) {
      if (ms < current) throw new RangeError('manualClock.set: time only moves forward');
      current = ms;
      return current;
    },
  };
}
