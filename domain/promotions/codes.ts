/**
 * The result codes of promotions and price control (issue 15 allocates 760–779; the spec gives none). No imports:
 * the promotion decider, the price rule and the workflow bundle all answer with them.
 */
export const PromotionCode = {
  nameRequired: 760,
  startRequired: 761,
  endRequired: 762,
  startNotLater: 763,
  endBeforeStart: 764,
  endEqualsStart: 765,
  endWithinHour: 766,
  stockAboveAvailable: 767,
  priceOutOfRange: 768,
  discountOutOfRange: 769,
  storeNotFound: 770,
  skuNotFound: 771,
  itemsInvalid: 772,
  purchaseLimitInvalid: 773,
  giftInvalid: 774,
  wrongState: 775,
  priceRuleInvalid: 776,
  nothingToPush: 777,
  textInvalid: 778,
} as const;
