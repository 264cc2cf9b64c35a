import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { type MessageParams, translate } from './i18n';

/** The spec's answer shapes: `{ code: 0, msg, data }` on success; `{ code, msg, errors? }` with a 4xx on failure. */

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

export function ok<Data>(request: FastifyRequest, data: Data, key = 'common.ok', params?: MessageParams) {
  return { code: 0 as const, msg: translate(request.language, key, params), data };
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

/** ag-grid's Infinite Row Model request (ARCHITECTURE.md: lists are server-side). */
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
