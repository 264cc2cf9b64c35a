/** The catalogue's result codes of scanning (spec §8; the batch screens' range 620–649). */
export const ScanCode = {
  itemCodeRequired: 621,
  itemCodeInvalid: 622,
  /** "Already scanned and checking in progress" (HTTP 409). */
  checking: 623,
  orderNotReady: 637,
  checkNotOpen: 638,
  notInBatch: 639,
  nothingToScan: 642,
} as const;
