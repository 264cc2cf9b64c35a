/**
 * The catalogue's result codes of the order board (spec §8, 570–599): what a refusal of an order answers with
 * (domain/orders/order.ts `orderErrors`, domain/orders/shipping.ts) and what the board's request checks name.
 */
export const OrderCode = {
  /** The order is not the account's, or does not exist (404). */
  orderNotFound: 570,
  /** The order's list does not allow the action (409). */
  wrongStatus: 571,
  /** A shipped (delivered, returned, refunded) order cannot be cancelled; shipped already (409). */
  alreadyShipped: 572,
  lineNotFound: 573,
  /** A mapped line whose stock is held cannot be mapped again (409). */
  /** The last line cannot be removed: cancel the order instead (409). */
  lastLine: 575,
  /** Split into zero: nothing chosen to split off. */
  splitNothing: 576,
  /** Split everything: the order would be left empty. */
  splitEverything: 577,
  quantityInvalid: 578,
  /** "Tracking Number is required" (spec §8). */
  trackingRequired: 579,
  /** Spec §5: a logistics provider and a pickup address must be chosen before requesting pickup. */
  pickupDetailsRequired: 580,
  /** "Pickup request failed" (spec §8): the order cannot have a pickup now (409). */
  pickupFailed: 581,
  masterCodeNotFound: 582,
  /** Spec §5: at least one record must be selected. */
  ordersRequired: 583,
  keyInvalid: 584,
  textInvalid: 585,
  /** Orders of several stores at once need the multi-store arrange key (403). */
  multiStore: 586,
  addressInvalid: 587,
  /** The marketplace did not arrange the shipment (its words in the message) (409). */
  arrangeFailed: 588,
  /** The marketplace did not cancel the order (its words in the message) (409). */
  cancelFailed: 589,
  /** Spec §4 "cancel third-party shipment": the order has no shipment arranged to cancel (409). */
  noShipment: 590,
  /** The marketplace keeps the shipment arranged, or refused to let it go (its words in the message) (409). */
  cancelShipmentFailed: 591,
  /** Spec §4 "process failed": the order has no failed step to try again (409). */
  nothingToRetry: 592,
  /** A replacement order with no item chosen (400). */
  replacementNothing: 593,
  /** The picker to assign is not a user of the account (404). */
  pickerNotFound: 594,
  // The end of the range, so codes the board's actions take from 590 up do not meet these.
  /** More serial numbers than the line has units (400). */
  serialsTooMany: 596,
  /** A serial number twice on one order (400). */
  serialDuplicate: 597,
  /** A manual order file that cannot be read (400). */
  uploadFile: 598,
  /** A manual order file with bad rows, every one listed (400). */
  uploadRows: 599,
} as const;
