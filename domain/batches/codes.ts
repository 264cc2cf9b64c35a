/**
 * The catalogue's result codes of batches, auto batch and scan to verify (620–649, spec §8): what a refusal answers
 * with besides its HTTP status. The batch's error table (batch.ts) and the routes' validation rules name them.
 */
export const BatchCode = {
  /** "Tracking Number is required" (spec §5, §8). */
  trackingRequired: 620,
  /** "Item Code is required". */
  itemCodeRequired: 621,
  /** "Item Code [{item_code}] invalid": not on the order, or more than it holds. */
  itemCodeInvalid: 622,
  /** "Already scanned and checking in progress" (HTTP 409). */
  checking: 623,
  /** "Duplicate config" (HTTP 409). */
  duplicateConfig: 624,
  /** At least one record must be selected. */
  ordersRequired: 625,
  /** The order is not new or unscan (HTTP 409). */
  orderNotBatchable: 626,
  /** The order is in a batch already (HTTP 409). */
  orderInBatch: 627,
  /** A pre-order batch takes pre-orders only, a normal one no pre-order. */
  orderTypeMismatch: 628,
  /** More orders than the batch may hold. */
  tooManyOrders: 629,
  /** The batch is closed (HTTP 409). */
  batchClosed: 630,
  /** The picker is not an active user of the account. */
  pickerInvalid: 631,
  textInvalid: 632,
  digitsInvalid: 633,
  maxOrdersInvalid: 634,
  /** Auto batch runs every 1 or 2 hours. */
  intervalInvalid: 635,
  /** Start and end are times HH:MM, the start before the end. */
  timeInvalid: 636,
  /** The order cannot be scanned now: new without a shipment, cancelled… (HTTP 409). */
  orderNotReady: 637,
  /** No check of the order is open: scan its tracking number first (HTTP 409). */
  checkNotOpen: 638,
  /** The tracking number is not one of the chosen batch's orders. */
  notInBatch: 639,
  keyInvalid: 640,
  /** The order is not in this batch. */
  orderNotInBatch: 641,
  /** The order has no line left to scan (HTTP 409). */
  nothingToScan: 642,
  /** An extra condition names a store the account does not have, or an unknown platform. */
  conditionInvalid: 643,
  dateInvalid: 644,
  /** The smart scan module is not in the account's package (HTTP 403). */
  smartScanOff: 645,
  /** Batch separation: the orders that could move all fall in one group (domain/batches/separation.ts). */
  oneGroup: 646,
  /** Batch separation: at least one order stays in the batch. */
  keepOne: 647,
  /** Bulk scan is off in the bulk scan control settings (HTTP 409; domain/scan/settings.ts). */
  bulkScanOff: 648,
  /** Entering a quantity with an item scan is off in the bulk scan control settings. */
  quantityOff: 649,
} as const;
