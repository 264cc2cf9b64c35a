import { useId } from 'react';

/** A local calendar day as the instant it starts (or ends) in the browser's zone, ISO. */
export function dayBound(day: string, end: boolean): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const instant = end ? new Date(year, month - 1, date, 23, 59, 59, 999) : new Date(year, month - 1, date);
  return instant.toISOString();
}

/** A period's start is after its end (both `yyyy-mm-dd`; an empty one bounds nothing). */
export const rangeInvalid = (from: string, to: string) => from !== '' && to !== '' && from > to;

/**
 * The "from" and "to" day fields of a report's filters: each bounds the other's picker, and a start after the end
 * marks both invalid with the message under the second.
 */
export function DateRangeFields({
  from,
  to,
  onFrom,
  onTo,
  labels,
}: {
  from: string;
  to: string;
  onFrom(day: string): void;
  onTo(day: string): void;
  labels: { from: string; to: string; invalid: string };
}) {
  const id = useId();
  const invalid = rangeInvalid(from, to);
  return (
    <>
      <div className={`field ${invalid ? 'field-invalid' : ''}`}>
        <label htmlFor={`${id}-from`} className="field-label">
          {labels.from}
        </label>
        <input
          id={`${id}-from`}
          type="date"
          className="input"
          value={from}
          max={to || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-range` : undefined}
          onChange={(event) => onFrom(event.target.value)}
        />
      </div>
      <div className={`field ${invalid ? 'field-invalid' : ''}`}>
        <label htmlFor={`${id}-to`} className="field-label">
          {labels.to}
        </label>
        <input
          id={`${id}-to`}
          type="date"
          className="input"
          value={to}
          min={from || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={invalid ? `${id}-range` : undefined}
          onChange={(event) => onTo(event.target.value)}
        />
        {invalid && (
          <p id={`${id}-range`} className="field-error">
            {labels.invalid}
          </p>
        )}
      </div>
    </>
  );
}
