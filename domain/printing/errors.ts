import type { ErrorTable } from '../shared/errors';
import { PrintCode } from './codes';

/**
 * What printing an order document refuses (commands/printing/print-documents.ts): orders the account does not have,
 * the one-print limits (spec §6 orders-awb-one-print-limit, orders-do-one-print-limit), and air waybills the
 * marketplace could not give.
 */
export const PRINT_ERRORS = [
  'ORDER_NOT_FOUND',
  'AWB_ONE_PRINT_LIMIT',
  'DO_ONE_PRINT_LIMIT',
  /** An order without a tracking number has no air waybill yet. */
  'AWB_NO_TRACKING',
  /** The marketplace refused the documents of some tracking numbers. */
  'WAYBILL_FAILED',
  'AWB_STORE_UNAVAILABLE',
  'AWB_UNSUPPORTED',
  /** The marketplace's documents could not be put together into one PDF. */
  'AWB_FAILED',
  /** The logo is not a PNG or JPEG that can be placed on a page. */
  'LOGO_INVALID',
  'LOGO_TOO_LARGE',
  'LOGO_NOT_FOUND',
] as const;
export type PrintErrorCode = (typeof PRINT_ERRORS)[number];

export const printErrors = {
  ORDER_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  AWB_ONE_PRINT_LIMIT: { status: 403, code: PrintCode.awbOnePrintLimit, key: 'printing.awb_one_print_limit' },
  DO_ONE_PRINT_LIMIT: { status: 403, code: PrintCode.doOnePrintLimit, key: 'printing.do_one_print_limit' },
  AWB_NO_TRACKING: { status: 409, code: PrintCode.awbNoTracking, key: 'printing.awb_no_tracking' },
  WAYBILL_FAILED: { status: 409, code: PrintCode.waybillFailed, key: 'printing.waybill_failed' },
  AWB_STORE_UNAVAILABLE: {
    status: 409,
    code: PrintCode.storeUnavailable,
    key: 'printing.awb_store_unavailable',
  },
  AWB_UNSUPPORTED: { status: 409, code: PrintCode.storeUnavailable, key: 'printing.awb_unsupported' },
  AWB_FAILED: { status: 409, code: PrintCode.awbFailed, key: 'printing.awb_failed' },
  LOGO_INVALID: { status: 400, code: PrintCode.logoInvalid, key: 'printing.settings.logo_invalid' },
  LOGO_TOO_LARGE: { status: 400, code: PrintCode.logoTooLarge, key: 'printing.settings.logo_too_large' },
  LOGO_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
} satisfies ErrorTable<PrintErrorCode>;
