/**
 * A token bucket per app, in this process: `perSecond` requests a second on average, bursts of up to `burst`. What a
 * refused request is told: how many seconds until a token is back (the answer's Retry-After).
 */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export const defaultFeedRateLimit: RateLimit = { perSecond: 50, burst: 100 };

export function rateLimiter(limit: RateLimit, now: () => number = performance.now.bind(performance)) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    /** Takes a token for `key`: 0 when granted, else the seconds to wait. */
    take(key: string): number {
      const t = now();
      const bucket = buckets.get(key) ?? { tokens: limit.burst, at: t };
      bucket.tokens = Math.min(limit.burst, bucket.tokens + ((t - bucket.at) / 1000) * limit.perSecond);
      bucket.at = t;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil((1 - bucket.tokens) / limit.perSecond);
    },
  };
}
