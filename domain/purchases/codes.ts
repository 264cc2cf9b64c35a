import type { ErrorTable } from '../shared/errors';

/**
 * The catalogue's result codes of purchasing (spec §8, 520–549): the error tables beside the purchase order's and the
 * goods receive note's error lists answer with them, and so do the purchasing contracts' validation rules.
 */
export const PurchaseCode = {
  /** "Must fill store name" (spec §5): a supplier's name. */
  supplierNameRequired: 520,
  supplierCompanyRequired: 521,
  supplierContactInvalid: 522,
  supplierAddressRequired: 523,
  supplierCityRequired: 524,
  supplierPostalCodeRequired: 525,
  supplierStateRequired: 526,
  supplierCountryRequired: 527,
  supplierEmailInvalid: 528,
  /** Another supplier of the account has the code (HTTP 409). */
  supplierCodeTaken: 529,
  /** A bulk file with bad rows: nothing applied, every bad row listed. */
  uploadRows: 530,
  /** A bulk file that cannot be read at all (HTTP 400; 415 when the body is not a file). */
  uploadFile: 531,
  /** An inactive supplier cannot take a new order (HTTP 409). */
  supplierInactive: 532,
  quantityInvalid: 533,
  unitCostInvalid: 534,
  /** A combo has no stock of its own: it cannot be bought as a line (HTTP 409). */
  comboRefused: 535,
  itemRepeated: 536,
  discountInvalid: 537,
  dateInvalid: 538,
  /** The order's or note's state does not allow the action (HTTP 409): also an open note, goods already received, a
   * note waiting for its approval. */
  wrongState: 539,
  /** Another action on the same document is running: a double click (HTTP 409). */
  inProgress: 540,
  /** The creator approving (or rejecting) their own document; only the owner may (HTTP 403). */
  approverIsCreator: 541,
  /** Receiving more than is still outstanding, or returning more than was received (HTTP 409). */
  moreThanOutstanding: 542,
  /** A receipt line that receives nothing, or more damaged than received. */
  receiptLineInvalid: 543,
  notOnPurchase: 544,
  itemsRequired: 545,
  keyInvalid: 546,
  /** The document's process has ended (HTTP 409). */
  closed: 547,
  textInvalid: 548,
  choiceInvalid: 549,
} as const;

/** The most pieces a line may count. */
export const QUANTITY_MAX = 1_000_000_000;

/** Refusals of the purchasing processes (the workflows), not of one aggregate's rules. */
export const PURCHASING_PROCESS_ERRORS = ['ACTION_IN_PROGRESS', 'PROCESS_CLOSED'] as const;
export type PurchasingProcessErrorCode = (typeof PURCHASING_PROCESS_ERRORS)[number];

export const purchasingProcessErrors = {
  /** Another action on the same document is running: a double click. */
  ACTION_IN_PROGRESS: { status: 409, code: PurchaseCode.inProgress, key: 'purchases.in_progress' },
  /** The document's process has ended: its state allows no action any more. */
  PROCESS_CLOSED: { status: 409, code: PurchaseCode.closed, key: 'purchases.closed' },
} as const satisfies ErrorTable<PurchasingProcessErrorCode>;

/** Refusals of the purchasing commands that are not a document's: what the command names is not usable. */
export const PURCHASING_INPUT_ERRORS = [
  'SUPPLIER_NOT_FOUND',
  'WAREHOUSE_NOT_FOUND',
  'MASTER_CODE_NOT_FOUND',
  'GOODS_RECEIPT_NOT_FOUND',
  'SUPPLIER_INACTIVE',
  'COMBO_REFUSED',
] as const;
export type PurchasingInputErrorCode = (typeof PURCHASING_INPUT_ERRORS)[number];

export const purchasingInputErrors = {
  SUPPLIER_NOT_FOUND: { status: 404, code: 404, key: 'purchases.supplier_not_found' },
  WAREHOUSE_NOT_FOUND: { status: 404, code: 404, key: 'purchases.warehouse_not_found' },
  MASTER_CODE_NOT_FOUND: { status: 404, code: 404, key: 'purchases.master_code_not_found' },
  GOODS_RECEIPT_NOT_FOUND: { status: 404, code: 404, key: 'purchases.grn.not_found' },
  SUPPLIER_INACTIVE: { status: 409, code: PurchaseCode.supplierInactive, key: 'purchases.supplier_inactive' },
  COMBO_REFUSED: { status: 409, code: PurchaseCode.comboRefused, key: 'purchases.combo_refused' },
} as const satisfies ErrorTable<PurchasingInputErrorCode>;
