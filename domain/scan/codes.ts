/** The catalogue's result codes of scanning (spec §8; the batch screens' range 620–649). */
export const ScanCode = {
  /** "Tracking Number is required" (spec §8). */
  trackingRequired: 620,
  itemCodeRequired: 621,
  itemCodeInvalid: 622,
  /** "Already scanned and checking in progress" (HTTP 409). */
  checking: 623,
  orderNotReady: 637,
  checkNotOpen: 638,
  notInBatch: 639,
  nothingToScan: 642,
  /** The package has no smart scan module (403). */
  smartScanOff: 645,
  /** Bulk scan is off in the bulk scan control settings (HTTP 409). */
  bulkScanOff: 648,
  /** Entering a quantity with an item scan is off in the bulk scan control settings. */
  quantityOff: 649,
} as const;
