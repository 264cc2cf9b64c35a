import { z } from 'zod';

/**
 * The shapes every context's contract shares: the spec's answers (`{ code: 0, msg, data }` on success; `{ code,
 * msg, errors? }` with a 4xx on failure) and ag-grid's Infinite Row Model paging (ARCHITECTURE.md: lists are
 * server-side). Zod only, no server imports.
 */

export const ErrorAnswer = z.object({
  code: z.number().int(),
  msg: z.string(),
  errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type ErrorAnswer = z.infer<typeof ErrorAnswer>;

export const Ok = <Data extends z.ZodType>(data: Data) =>
  z.object({ code: z.literal(0), msg: z.string(), data });

/** The error answers every authenticated route may give, for the OpenAPI document. */
export const refusals = {
  400: ErrorAnswer,
  401: ErrorAnswer,
  403: ErrorAnswer,
  404: ErrorAnswer,
} as const;

/**
 * A calendar day (yyyy-mm-dd) that exists, in the years a business record carries: JavaScript rolls 31 February into
 * March and takes a year 0, which Postgres refuses (a 500 where the caller deserved a 400).
 */
export function isCalendarDay(day: string): boolean {
  if (!/^(19|2\d)\d{2}-\d{2}-\d{2}$/.test(day)) return false;
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}

/** A query-string value holding JSON; text that is not JSON is passed on as it is and fails validation. */
function parseJsonText(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** ag-grid's Infinite Row Model request. */
export const GridQuery = z.strictObject({
  startRow: z.coerce.number().int().min(0).default(0),
  endRow: z.coerce.number().int().min(1).max(100_000).default(100),
  sortModel: z
    .preprocess(
      parseJsonText,
      z.array(z.strictObject({ colId: z.string().max(64), sort: z.enum(['asc', 'desc']) })).max(5),
    )
    .default([]),
  filterModel: z.preprocess(parseJsonText, z.record(z.string().max(64), z.unknown())).default({}),
  search: z.string().max(200).optional(),
});
export type GridQuery = z.infer<typeof GridQuery>;

export const GridPage = <Row extends z.ZodType>(row: Row) =>
  z.object({ rows: z.array(row), lastRow: z.number().int() });
export type GridPage<Row> = { rows: Row[]; lastRow: number };
