import { ReturnCode } from '@domain/returns/codes';

/**
 * The catalogue's result codes of printing, returns and carrier manifests (650–679, spec §8): what a refusal answers
 * with besides its HTTP status.
 */
export const PrintCode = {
  documentInvalid: 650,
  ordersInvalid: 651,
  originInvalid: 652,
  awbFailed: 653,
  waybillFailed: 654,
  awbOnePrintLimit: 655,
  doOnePrintLimit: 656,
  awbNoTracking: 657,
  settingsInvalid: 658,
  companyTextTooLong: 659,
  logoInvalid: 660,
  logoTooLarge: 661,
  // 662–674, 677 and 679: the returns' codes (domain/returns/codes.ts).
  ...ReturnCode,
  manifestMonthInvalid: 675,
  manifestMonthFuture: 676,
  storeUnavailable: 678,
} as const;
