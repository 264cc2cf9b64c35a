import { PRINT_DOCUMENTS, PRINT_ORIGINS } from '@domain/orders/order';
import { PrintCode } from '@domain/printing/codes';
import { z } from 'zod';
import { DateFilter, gridQuery, setFilter } from './grid';
import { rule } from './rules';

/** Printing order documents and the print log (api/orders/print.ts): every request and answer, written once. */

export const MAX_PRINT_ORDERS = 200;

const ordersRequired = rule(PrintCode.ordersInvalid, 'printing.orders_required');
export const PrintBody = z.strictObject({
  document: z.enum(PRINT_DOCUMENTS, { error: rule(PrintCode.documentInvalid, 'printing.document_invalid') }),
  order_ids: z
    .array(z.string({ error: ordersRequired }).min(1, ordersRequired).max(100, ordersRequired), {
      error: ordersRequired,
    })
    .min(1, ordersRequired)
    .max(
      MAX_PRINT_ORDERS,
      rule(PrintCode.ordersInvalid, 'printing.too_many_orders', { max: MAX_PRINT_ORDERS }),
    ),
  origin: z.enum(PRINT_ORIGINS, { error: rule(PrintCode.originInvalid, 'printing.origin_invalid') }),
});
export type PrintBody = z.infer<typeof PrintBody>;

// ---- the print log ----

export const PRINT_LOG_SORTS = ['printed_at', 'document', 'origin', 'order_number'] as const;
export const PrintLogQuery = gridQuery(PRINT_LOG_SORTS, {
  document: setFilter(PRINT_DOCUMENTS),
  origin: setFilter(PRINT_ORIGINS),
  printed_at: DateFilter,
}).extend({
  order_id: z.string().max(100).optional(),
  document: z.enum(PRINT_DOCUMENTS).optional(),
  origin: z.enum(PRINT_ORIGINS).optional(),
});
export type PrintLogQuery = z.infer<typeof PrintLogQuery>;

export const PrintLogRow = z.object({
  id: z.string(),
  order_id: z.string(),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
  document: z.enum(PRINT_DOCUMENTS),
  origin: z.string(),
  printed_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  printed_at: z.string(),
});
export type PrintLogRow = z.infer<typeof PrintLogRow>;

export const PrintLogPage = z.object({ rows: z.array(PrintLogRow), lastRow: z.number().int() });
export type PrintLogPage = z.infer<typeof PrintLogPage>;
