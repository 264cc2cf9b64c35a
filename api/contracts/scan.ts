import { OrderCode } from '@domain/orders/codes';
import { ScanCode } from '@domain/scan/codes';
import { SCAN_QUANTITY_MAX } from '@domain/scan/settings';
import { TEXT_LIMITS } from '@domain/shared/limits';
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
const ItemCode = z
  .string({ error: itemCodeRequired })
  .trim()
  .min(1, itemCodeRequired)
  .max(200, rule(ScanCode.itemCodeInvalid, 'batch.scan.item_code_too_long', { max: 200 }));
const quantityInvalid = rule(400, 'batch.scan.quantity_invalid', { max: SCAN_QUANTITY_MAX });

export const ItemBody = z.strictObject({
  order_id: z.string().min(1).max(100),
  item_code: ItemCode,
  /** Units this scan counts: more than 1 needs the bulk scan control's quantity entry. */
  quantity: z
    .number({ error: quantityInvalid })
    .int(quantityInvalid)
    .min(1, quantityInvalid)
    .max(SCAN_QUANTITY_MAX, quantityInvalid)
    .optional(),
  scan_id: z.string().min(1).max(100).optional(),
});
export type ItemBody = z.infer<typeof ItemBody>;
export const ResetBody = z.strictObject({
  order_id: z.string().min(1).max(100),
  undo_scan: z.boolean().optional(),
});
export type ResetBody = z.infer<typeof ResetBody>;
export const OrderParams = z.strictObject({ id: z.string().max(100) });

const serialInvalid = rule(OrderCode.textInvalid, 'orders.serial_invalid', { max: TEXT_LIMITS.code });
/** A serial number scanned for a line of the caller's check (the drawer's rules: 596, 597). */
export const SerialBody = z.strictObject({
  order_id: z.string().min(1).max(100),
  line_id: z.string().min(1).max(200),
  serial_number: z
    .string({ error: serialInvalid })
    .trim()
    .min(1, serialInvalid)
    .max(TEXT_LIMITS.code, serialInvalid),
  /** The same id sent again (a retried request) records the serial once. */
  scan_id: z.string().min(1).max(100).optional(),
});
export type SerialBody = z.infer<typeof SerialBody>;

export const CheckLineAnswer = z.object({
  line_id: z.string(),
  code: z.string(),
  name: z.string(),
  required: z.number().int(),
  scanned: z.number().int(),
  /** The serial numbers recorded on the order line this check line counts (a combo's: the combo line's). */
  serial_numbers: z.array(z.string()),
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

// ---- bulk scan control ----

const settingInvalid = rule(400, 'batch.scan_settings.invalid');
const Setting = z.boolean({ error: settingInvalid });

/** The account's bulk scan control (domain/scan/settings.ts): each option on or off. */
export const ScanSettingsBody = z.strictObject({
  quantity_entry: Setting,
  order_number_scan: Setting,
  bulk_single_items: Setting,
});
export type ScanSettingsBody = z.infer<typeof ScanSettingsBody>;
export const ScanSettingsAnswer = ScanSettingsBody.extend({ updated_at: z.string().nullable() });
export type ScanSettingsAnswer = z.infer<typeof ScanSettingsAnswer>;

const batchRequired = rule(400, 'batch.scan.batch_required');
/** One item scanned for a whole batch: it completes every single-unit order of that item the batch holds. */
export const BulkBody = z.strictObject({
  batch_id: z.string({ error: batchRequired }).trim().min(1, batchRequired).max(64, batchRequired),
  item_code: ItemCode,
});
export type BulkBody = z.infer<typeof BulkBody>;
export const BulkAnswer = z.object({
  /** The orders this scan scanned. */
  orders: z.array(
    z.object({ id: z.string(), order_number: z.string(), tracking_number: z.string().nullable() }),
  ),
  batch: BatchProgress.nullable(),
});
export type BulkAnswer = z.infer<typeof BulkAnswer>;
