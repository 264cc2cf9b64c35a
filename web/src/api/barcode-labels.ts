import { useMutation } from '@tanstack/react-query';
import { downloadFile } from './download';

/**
 * Inventory → barcode printing (spec §3 "Barcode printing"): a PDF of labels for chosen master codes, made by
 * `POST /api/inventory/barcode/print` (api/inventory/barcode.ts) and downloaded with the bearer token.
 */

export const LABEL_PAPERS = ['a4', 'letter', 'continuous'] as const;
export type LabelPaper = (typeof LABEL_PAPERS)[number];
export const LABEL_ORIENTATIONS = ['portrait', 'landscape'] as const;
export type LabelOrientation = (typeof LABEL_ORIENTATIONS)[number];
export const LABEL_SYMBOLOGIES = ['code128', 'qrcode'] as const;
export type LabelSymbology = (typeof LABEL_SYMBOLOGIES)[number];
export const LABEL_CURRENCIES = ['MYR', 'SGD', 'HKD', 'TWD', 'PHP'] as const;
export type LabelCurrency = (typeof LABEL_CURRENCIES)[number];

/** The server's bounds (commands/printing/labels.ts LABEL_LIMITS). */
export const LABEL_LIMITS = {
  widthMm: { min: 20, max: 150 },
  heightMm: { min: 10, max: 150 },
  perSheetMax: 500,
  copiesMax: 500,
  totalMax: 5_000,
  entriesMax: 500,
} as const;

export interface PrintLabelsBody {
  master_codes: { id: string; copies: number }[];
  paper: LabelPaper;
  width_mm: number;
  height_mm: number;
  orientation: LabelOrientation;
  symbology: LabelSymbology;
  /** A4/Letter only; null: as many as fit. */
  per_sheet: number | null;
  show_name: boolean;
  show_price: boolean;
  /** The price list currency; null: the unit price. */
  currency: LabelCurrency | null;
}

export const PRINT_LABELS_ENDPOINT = '/api/inventory/barcode/print';

export function usePrintLabels() {
  return useMutation({
    mutationFn: (body: PrintLabelsBody) =>
      downloadFile(PRINT_LABELS_ENDPOINT, {
        method: 'POST',
        body,
        fileName: `labels-${new Date().toISOString().slice(0, 10)}.pdf`,
      }),
  });
}
