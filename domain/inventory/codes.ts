/**
 * The catalogue's result codes of the inventory (spec §8 names one inventory message, "Only 0 quantity able to be
 * removed from a branch", and no codes, so these follow its pattern: 0 is success, 4xx codes name what went wrong,
 * the HTTP status says what kind of refusal it is). The error tables beside each aggregate and the contracts'
 * validation rules answer with these.
 */
export const InventoryCode = {
  codeRequired: 460,
  codeTaken: 461,
  nameRequired: 462,
  typeInvalid: 463,
  categoryNotFound: 464,
  brandNotFound: 465,
  unitNotFound: 466,
  amountInvalid: 467,
  quantityInvalid: 468,
  classificationInvalid: 469,
  currencyInvalid: 470,
  currencyRepeated: 471,
  /** One master code more than the package allows (HTTP 403). */
  masterCodeLimit: 472,
  typeFixed: 473,
  codeBound: 474,
  /** A combo has no stock of its own: no initial quantity, no rack location. */
  comboHasNoStock: 475,
  comboContainsItself: 476,
  comboInCombo: 477,
  componentNotFound: 478,
  componentRepeated: 479,
  notACombo: 480,
  comboItemsRequired: 481,
  nameTaken: 482,
  inUse: 483,
  categoryCycle: 484,
  warehouseCodeTaken: 485,
  defaultRequired: 486,
  /** One branch more than the package allows (HTTP 403). */
  branchLimit: 487,
  warehouseNotFound: 488,
  rackNotFound: 489,
  /** "Only 0 quantity able to be removed from a branch" (spec §5, §8). */
  stockRemains: 490,
  nothingToChange: 491,
  textInvalid: 492,
  phoneInvalid: 493,
  imageUrlInvalid: 494,
  upcInvalid: 495,
  statusInvalid: 496,
  hasSubcategories: 497,
} as const;

/**
 * Result codes of the stock routes (the inventory reference routes use 460–497, the team routes 440–445, the
 * barcode routes share 450–456 for their own refusals). 498 was the first code of 440–499 no route used.
 */
export const StockCode = {
  quantityInvalid: 450,
  /** A manual deduction would take on-hand stock below zero while the tenant refuses that (HTTP 409). */
  negativeStock: 451,
  modeInvalid: 452,
  /** The same idempotency key was used for a different movement (HTTP 409). */
  keyReused: 453,
  keyInvalid: 454,
  /** A bulk file with bad rows: nothing applied, every bad row listed. */
  uploadRows: 455,
  uploadFile: 456,
  /** The request body is not a CSV or XLSX file (HTTP 415). */
  mediaType: 457,
  /** An export larger than the cap. */
  exportTooLarge: 458,
  timeInvalid: 459,
  /**
   * Refused by the domain for another reason (HTTP 409): release more than reserved or held, stop processing more
   * than is in process, cancel more incoming than expected; same warehouse (HTTP 400).
   */
  refused: 449,
  /** A hold request naming an unknown hold kind (online, pos, supplier) or action (hold, release). */
  holdInvalid: 498,
  /** A combo has no stock of its own (shared with the reference routes). */
  comboHasNoStock: InventoryCode.comboHasNoStock,
} as const;

/** The most pieces one quantity may name. */
export const QUANTITY_MAX = 1_000_000_000;

export const MASTER_CODE_TYPES = ['standard', 'combo'] as const;
export const MASTER_CODE_STATUSES = ['active', 'inactive'] as const;
