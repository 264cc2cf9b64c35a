/**
 * The result codes of the stock and price push (issue 15 allocates 740–759 to it; the spec names none). The error
 * tables beside the push rules and the contracts' validation rules answer with these.
 */
export const PushCode = {
  percentInvalid: 740,
  amountInvalid: 741,
  /** A maximum below the minimum. */
  rangeInvalid: 742,
  storeNotFound: 743,
  masterCodeNotFound: 744,
  warehouseNotFound: 745,
  /** A store's warehouses must name at least one. */
  warehousesRequired: 746,
  /** The store has nothing linked to push (manual sync). */
  nothingToSync: 747,
  logRangeInvalid: 748,
} as const;
