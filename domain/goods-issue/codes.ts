/**
 * The catalogue's result codes of goods issue notes and their approval layers (spec §8: 550–569). No imports:
 * the approval layers (domain/approvals) and the note's decider both answer with them, and the workflow bundle
 * takes both.
 */
export const GinCode = {
  referenceInvalid: 550,
  reasonInvalid: 551,
  warehouseNotFound: 552,
  linesInvalid: 553,
  quantityInvalid: 554,
  masterCodeNotFound: 555,
  comboLine: 556,
  lineRepeated: 557,
  wrongState: 558,
  notCreator: 559,
  layerKeyMissing: 560,
  layerOutOfOrder: 561,
  sameApprover: 562,
  alreadyApproved: 563,
  approvalDecided: 564,
  rejectReasonRequired: 565,
  issuing: 566,
  retryForbidden: 567,
  settingsInvalid: 568,
  textInvalid: 569,
} as const;
