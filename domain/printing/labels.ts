import { type ErrorTable, refuser } from '../shared/errors';

/**
 * Barcode labels (spec §3 "Barcode printing"): the sheets, orientations and symbologies a label print takes, its
 * limits, and its refusals. commands/printing/labels.ts lays the labels out and draws them.
 */

export const PAPERS = ['a4', 'letter', 'continuous'] as const;
export type Paper = (typeof PAPERS)[number];
export const ORIENTATIONS = ['portrait', 'landscape'] as const;
export type Orientation = (typeof ORIENTATIONS)[number];
export const SYMBOLOGIES = ['code128', 'qrcode'] as const;
export type Symbology = (typeof SYMBOLOGIES)[number];

export const LABEL_LIMITS = {
  widthMm: { min: 20, max: 150 },
  heightMm: { min: 10, max: 150 },
  perSheetMax: 500,
  copiesMax: 500,
  /** Labels in one PDF, all items' copies together. */
  totalMax: 5_000,
  /** Master codes named in one print. */
  entriesMax: 500,
} as const;

/** Result codes of the label routes (the inventory's own run 460–497). */
export const BarcodeCode = {
  /** No master code chosen ("No products selected", spec §8). */
  noItems: 450,
  sizeInvalid: 451,
  /** More labels per sheet than the sheet holds at this size and orientation. */
  doesNotFit: 452,
  copiesInvalid: 453,
  tooManyLabels: 454,
  optionInvalid: 455,
  /** A code Code 128 cannot carry (not printable ASCII). */
  notEncodable: 456,
} as const;

export type LabelErrorCode = 'DOES_NOT_FIT' | 'NOT_ENCODABLE' | 'NOT_FOUND';

export const labelErrors = {
  DOES_NOT_FIT: { status: 400, code: BarcodeCode.doesNotFit, key: 'barcode.does_not_fit' },
  NOT_ENCODABLE: { status: 400, code: BarcodeCode.notEncodable, key: 'barcode.not_encodable' },
  /** A master code missing or another account's: the same answer. */
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
} as const satisfies ErrorTable<LabelErrorCode>;

export const refuseLabels = refuser(labelErrors);
