import { ScanCode } from '@domain/scan/codes';
import { z } from 'zod';
import { rule } from './rules';

/**
 * Scan to verify (api/orders/scan.ts; the console's web/src/api/scan.ts by z.infer). Zod only. Result codes:
 * domain/scan/codes.ts.
 */

/** A person named in an answer (a picker). */
export const Person = z.object({ id: z.string(), name: z.string().nullable() });

const trackingRequired = rule(ScanCode.trackingRequired, 'batch.scan.tracking_required');
const itemCodeRequired = rule(ScanCode.itemCodeRequired, 'batch.scan.item_code_required');

export const TrackingBody = z.strictObject({
  tracking_number: z
    .string({ error: trackingRequired })
    .trim()
    .min(1, trackingRequired)
    .max(100, rule(ScanCode.trackingRequired, 'batch.scan.tracking_too_long', { max: 100 })),
  batch_id: z.string().max(64).nullish(),
});
export type TrackingBody = z.infer<typeof TrackingBody>;
export const ItemBody = z.strictObject({
  order_id: z.string().min(1).max(100),
  item_code: z
    .string({ error: itemCodeRequired })
    .trim()
    .min(1, itemCodeRequired)
    .max(200, rule(ScanCode.itemCodeInvalid, 'batch.scan.item_code_too_long', { max: 200 })),
  scan_id: z.string().min(1).max(100).optional(),
});
export type ItemBody = z.infer<typeof ItemBody>;
export const ResetBody = z.strictObject({
  order_id: z.string().min(1).max(100),
  undo_scan: z.boolean().optional(),
});
export type ResetBody = z.infer<typeof ResetBody>;
export const OrderParams = z.strictObject({ id: z.string().max(100) });

export const CheckLineAnswer = z.object({
  line_id: z.string(),
  code: z.string(),
  name: z.string(),
  required: z.number().int(),
  scanned: z.number().int(),
});
export const BatchProgress = z.object({
  id: z.string(),
  label: z.string(),
  name: z.string(),
  total_orders: z.number().int(),
  scanned_orders: z.number().int(),
});
export type BatchProgress = z.infer<typeof BatchProgress>;
export const ScanAnswer = z.object({
  order: z.object({
    id: z.string(),
    order_number: z.string(),
    tracking_number: z.string().nullable(),
    status: z.string(),
  }),
  check: z.object({
    status: z.enum(['open', 'completed', 'idle']),
    round: z.number().int(),
    picker: Person.nullable(),
    lines: z.array(CheckLineAnswer),
    scanned: z.number().int(),
    required: z.number().int(),
    completed: z.boolean(),
  }),
  /** The line the item just scanned counted on. */
  scanned_line: z.string().nullable(),
  batch: BatchProgress.nullable(),
});
export type ScanAnswer = z.infer<typeof ScanAnswer>;

/** An open batch to scan by, with its progress and picker. */
export const ScanBatch = BatchProgress.extend({ picker: Person.nullable() });
export type ScanBatch = z.infer<typeof ScanBatch>;
