import type { PrintLabels } from '@api/contracts/inventory-barcode';
import type { PRICE_CURRENCIES } from '@api/contracts/inventory-master-codes';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { downloadFile } from './download';

/**
 * Inventory → barcode printing (spec §3 "Barcode printing"): a PDF of labels for chosen master codes, made by
 * `POST /api/inventory/barcode/print` (api/inventory/barcode.ts) and downloaded with the bearer token.
 */

export { PRICE_CURRENCIES as LABEL_CURRENCIES } from '@api/contracts/inventory-master-codes';
export {
  LABEL_LIMITS,
  ORIENTATIONS as LABEL_ORIENTATIONS,
  type Orientation as LabelOrientation,
  PAPERS as LABEL_PAPERS,
  type Paper as LabelPaper,
  SYMBOLOGIES as LABEL_SYMBOLOGIES,
  type Symbology as LabelSymbology,
} from '@domain/printing/labels';
export type LabelCurrency = (typeof PRICE_CURRENCIES)[number];
/** The body as the server reads it, every default filled in. */
export type PrintLabelsBody = z.infer<typeof PrintLabels>;

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
