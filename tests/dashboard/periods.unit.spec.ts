import { periodSpans } from '@projections/dashboard.queries';
import { describe, expect, it } from 'vitest';

/** The dashboard's periods on the seller's calendar: weeks from Monday, whole last months, rolling days. */
describe('dashboard periods', () => {
  it('spans a Saturday late in a month', () => {
    expect(periodSpans('2026-11-28')).toEqual({
      today: { from: '2026-11-28', to: '2026-11-28' },
      yesterday: { from: '2026-11-27', to: '2026-11-27' },
      this_week: { from: '2026-11-23', to: '2026-11-28' },
      last_week: { from: '2026-11-16', to: '2026-11-22' },
      this_month: { from: '2026-11-01', to: '2026-11-28' },
      last_month: { from: '2026-10-01', to: '2026-10-31' },
      last_7_days: { from: '2026-11-22', to: '2026-11-28' },
      previous_7_days: { from: '2026-11-15', to: '2026-11-21' },
      last_30_days: { from: '2026-10-30', to: '2026-11-28' },
      previous_30_days: { from: '2026-09-30', to: '2026-10-29' },
    });
  });

  it('starts a week on the Monday it is, and takes a short February as last month', () => {
    const monday = periodSpans('2028-03-06');
    expect(monday.this_week).toEqual({ from: '2028-03-06', to: '2028-03-06' });
    expect(monday.last_week).toEqual({ from: '2028-02-28', to: '2028-03-05' });
    expect(periodSpans('2028-03-01').last_month).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(periodSpans('2027-01-03').this_week).toEqual({ from: '2026-12-28', to: '2027-01-03' });
    expect(periodSpans('2027-01-03').last_month).toEqual({ from: '2026-12-01', to: '2026-12-31' });
  });
});
