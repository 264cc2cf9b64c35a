import { z } from 'zod';
import { GridQuery } from './common';

/**
 * ag-grid's filter and sort models as a list's contract takes them (the Infinite Row Model, ARCHITECTURE.md):
 * text, set and date filters and a grid's own sortable columns. projections/runtime/grid.ts turns them into SQL.
 */

const TEXT_FILTER_TYPES = [
  'contains',
  'notContains',
  'equals',
  'notEqual',
  'startsWith',
  'endsWith',
  'blank',
  'notBlank',
] as const;

export const TextCondition = z.strictObject({
  filterType: z.literal('text').optional(),
  type: z.enum(TEXT_FILTER_TYPES),
  filter: z.string().max(200).nullish(),
});
export type TextCondition = z.infer<typeof TextCondition>;

/** One condition, or ag-grid's combined form (`operator` with `conditions`). */
export const TextFilter = z.union([
  TextCondition,
  z.strictObject({
    filterType: z.literal('text').optional(),
    operator: z.enum(['AND', 'OR']),
    conditions: z.array(TextCondition).min(1).max(10),
  }),
]);
export type TextFilter = z.infer<typeof TextFilter>;

export const setFilter = <const Values extends readonly [string, ...string[]]>(values: Values) =>
  z.strictObject({ filterType: z.literal('set'), values: z.array(z.enum(values)).max(values.length * 2) });

/** A date or time without an offset is UTC, whatever the server's zone; a console wanting local days sends one. */
export function instant(text: string | null | undefined): Date | undefined {
  if (!text) return undefined;
  const iso = text.replace(' ', 'T');
  if (!iso.includes('T')) return new Date(`${iso}T00:00:00Z`);
  return new Date(/(Z|[+-]\d{2}:\d{2})$/.test(iso) ? iso : `${iso}Z`);
}

/** ag-grid's date filter sends `yyyy-mm-dd hh:mm:ss`; a bare date or an ISO instant is taken too. */
const DateText = z
  .string()
  .max(40)
  .regex(
    /^(19|2\d)\d{2}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})?)?$/,
  )
  .refine((text) => !Number.isNaN(instant(text)!.getTime()));

export const DateCondition = z.strictObject({
  filterType: z.literal('date').optional(),
  type: z.enum(['equals', 'notEqual', 'lessThan', 'greaterThan', 'inRange', 'blank', 'notBlank']),
  dateFrom: DateText.nullish(),
  dateTo: DateText.nullish(),
});
export type DateCondition = z.infer<typeof DateCondition>;

export const DateFilter = z.union([
  DateCondition,
  z.strictObject({
    filterType: z.literal('date').optional(),
    operator: z.enum(['AND', 'OR']),
    conditions: z.array(DateCondition).min(1).max(10),
  }),
]);
export type DateFilter = z.infer<typeof DateFilter>;

/** GridQuery with this grid's own sortable columns and filter model. */
export function gridQuery<const Sort extends readonly [string, ...string[]], Filters extends z.ZodRawShape>(
  sortColumns: Sort,
  filters: Filters,
) {
  return GridQuery.extend({
    sortModel: GridQuery.shape.sortModel.pipe(
      z.array(z.strictObject({ colId: z.enum(sortColumns), sort: z.enum(['asc', 'desc']) })),
    ),
    filterModel: GridQuery.shape.filterModel.pipe(z.strictObject(filters).partial()),
  });
}

/** A LIKE pattern matching `text` literally (backslash is Postgres's default escape). */
