import { dayIn } from '../batches/auto-batch';

/**
 * The package's monthly order limit (issue 14: "orders beyond the limit are imported but held … never dropped").
 *
 * What counts: an order that enters the warehouse's work, in the calendar month (in the account's time zone) it
 * entered it: when it was imported, or, for an order held over the limit, when it was released. Not the
 * marketplace's order time: a first import reads two weeks back, and an order placed on the 31st but imported on the
 * 1st would otherwise land in a month already closed, so a month's count could change after its orders were
 * decided. Orders first seen finished (shipped, cancelled, delivered) have no work to hold and do not count; nor do
 * the parts a split makes (the same order, divided).
 *
 * Held orders wait in arrival order: while any is held, a new order waits behind it even when a place is free, and
 * the release (commands/orders/monthly-limit.ts) lets them in oldest first.
 */

/** The calendar month of an instant in a time zone, `yyyy-mm`. */
export const monthIn = (timezone: string, at: Date): string => dayIn(timezone, at).slice(0, 7);

/** Whether a new order enters now or is held: the limit (null: none), this month's admissions, whether any wait. */
export function admits(limit: number | null, admittedThisMonth: number, waiting: boolean): boolean {
  if (limit === null) return true;
  return !waiting && admittedThisMonth < limit;
}

/** How many held orders may enter now (Infinity without a limit). */
export const freePlaces = (limit: number | null, admittedThisMonth: number): number =>
  limit === null ? Number.POSITIVE_INFINITY : Math.max(0, limit - admittedThisMonth);
