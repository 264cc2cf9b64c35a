import { type ErrorTable, refuser } from '../shared/errors';
import { ScanCode } from './codes';

/**
 * Bulk scan control (spec shell.md §2 /settings/ "bulk scan control"): how an account lets its packers scan faster
 * than one unit per scan, each off until the seller turns it on, and each enforced by the scan itself
 * (commands/scan/verify.ts), not only shown:
 *
 * - quantityEntry: an item scan may carry a quantity (a carton of 12 is one scan and "12"), never more than the
 *   order still needs of that item;
 * - orderNumberScan: the order number opens an order's check where a tracking number would (labels without a
 *   tracking barcode);
 * - bulkSingleItems: in a batch, one scan of an item completes every order of the batch waiting to be scanned that
 *   holds just one unit of that item — the single-item orders are packed straight from the pick.
 */
export interface ScanSettings {
  quantityEntry: boolean;
  orderNumberScan: boolean;
  bulkSingleItems: boolean;
}

export const DEFAULT_SCAN_SETTINGS: ScanSettings = {
  quantityEntry: false,
  orderNumberScan: false,
  bulkSingleItems: false,
};

/** The most units one item scan may count, with quantity entry on. */
export const SCAN_QUANTITY_MAX = 10_000;

export const SCAN_SETTINGS_ERRORS = ['BULK_SCAN_OFF', 'QUANTITY_OFF'] as const;
export type ScanSettingsErrorCode = (typeof SCAN_SETTINGS_ERRORS)[number];

export const scanSettingsErrors = {
  BULK_SCAN_OFF: { status: 409, code: ScanCode.bulkScanOff, key: 'batch.scan.bulk_off' },
  QUANTITY_OFF: { status: 400, code: ScanCode.quantityOff, key: 'batch.scan.quantity_off' },
} satisfies ErrorTable<ScanSettingsErrorCode>;

export const refuseBySettings = refuser(scanSettingsErrors);
