import { CreateBatchesBody } from '@api/contracts/batches';
import { ManifestBody } from '@api/contracts/manifests';
import { OrderListQuery } from '@api/contracts/orders';
import { NewPurchase } from '@api/contracts/purchases';
import { describe, expect, it } from 'vitest';

/**
 * Days and months the contracts take are ones Postgres can store: JavaScript's dates take a year 0 and roll
 * 31 February into March, which Postgres refuses with an error (a 500) or, in an event, a projection that stops.
 */
describe('days and months in the contracts', () => {
  const days = {
    'a purchase date': (day: string) => NewPurchase.shape.date.safeParse(day).success,
    'a batch date': (day: string) => CreateBatchesBody.shape.date.safeParse(day).success,
    'an order list bound': (day: string) => OrderListQuery.shape.ordered_from.safeParse(day).success,
  };

  it.each(Object.entries(days))('%s takes a real day and refuses year 0 and 31 February', (_name, takes) => {
    expect(takes('2026-02-28')).toBe(true);
    expect(takes('0000-01-01')).toBe(false);
    expect(takes('2026-02-31')).toBe(false);
    expect(takes('9999-12-31')).toBe(false);
  });

  it('a manifest month has a year Postgres can count in', () => {
    expect(ManifestBody.safeParse({ month: '2026-03' }).success).toBe(true);
    expect(ManifestBody.safeParse({ month: '0000-01' }).success).toBe(false);
  });
});
