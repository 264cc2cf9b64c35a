import type { AutoPrintClaim, AutoPrintClaimBody } from '@api/contracts/auto-print';
import { apiData } from '@web/api/client';

export { AUTO_PRINT_STATE_LIST, type AutoPrintState } from '@domain/printing/auto-print';
export type { AutoPrintClaim };

/**
 * The worker auto print station (api/orders/auto-print.ts): the next orders it may print, each order's document
 * given to one station once; the station then prints them through the print route (web/src/api/printing.ts).
 */
export const claimAutoPrint = (body: AutoPrintClaimBody) =>
  apiData<AutoPrintClaim>('/api/orders/auto-print/claim', { method: 'POST', body });
