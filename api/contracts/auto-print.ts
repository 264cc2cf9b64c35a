import { PRINT_DOCUMENTS } from '@domain/orders/order';
import { AUTO_PRINT_STATE_LIST } from '@domain/printing/auto-print';
import { PrintCode } from '@domain/printing/codes';
import { z } from 'zod';
import { rule } from './rules';

/** The worker auto print station's claim (POST /api/orders/auto-print/claim; api/orders/auto-print.ts). */

export const AutoPrintClaimBody = z.strictObject({
  /** The station's own id (kept by the console across reloads): which station took an order, for the log. */
  station: z
    .string({ error: rule(PrintCode.originInvalid, 'printing.auto_print.station_invalid') })
    .regex(/^[\w-]{1,64}$/, rule(PrintCode.originInvalid, 'printing.auto_print.station_invalid')),
  document: z.enum(PRINT_DOCUMENTS, { error: rule(PrintCode.documentInvalid, 'printing.document_invalid') }),
  state: z.enum(AUTO_PRINT_STATE_LIST, {
    error: rule(PrintCode.originInvalid, 'printing.auto_print.state_invalid'),
  }),
  /** Orders that reached the state from this instant on (the station's start). */
  since: z.iso.datetime({
    offset: true,
    error: rule(PrintCode.originInvalid, 'printing.auto_print.since_invalid'),
  }),
});
export type AutoPrintClaimBody = z.infer<typeof AutoPrintClaimBody>;

export const AutoPrintClaim = z.object({
  /** The print log origin to print them from. */
  origin: z.string(),
  orders: z.array(z.object({ id: z.string(), order_number: z.string() })),
  /** More orders are waiting beyond this claim. */
  more: z.boolean(),
});
export type AutoPrintClaim = z.infer<typeof AutoPrintClaim>;
