/** The catalogue's result codes of returns (spec §8; the order documents' range 650–679). */
export const ReturnCode = {
  returnItemsRequired: 662,
  refundRequired: 663,
  includeShippingRequired: 664,
  refundReasonRequired: 665,
  returnActionInvalid: 666,
  amountInvalid: 667,
  returnLineInvalid: 668,
  orderNotShipped: 669,
  orderAlreadyReturned: 670,
  imageInvalid: 671,
  imageTooLarge: 672,
  imageNotFound: 673,
  returnTextTooLong: 674,
  idempotencyKeyInvalid: 677,
  lookupInvalid: 679,
} as const;
