import type {
  BulkAnswer,
  ScanAnswer,
  ScanBatch,
  ScanSettingsAnswer,
  ScanSettingsBody,
} from '@api/contracts/scan';
import { BATCHES_VIEW, ORDER_COUNTS_VIEW, SCAN_CHECKS_VIEW } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

export type { ScanBatch };
/** An order's check as every scan answer carries it. */
export type ScanState = ScanAnswer;
export type CheckLine = ScanAnswer['check']['lines'][number];

export { BATCHES_VIEW, ORDER_COUNTS_VIEW, SCAN_CHECKS_VIEW };

/**
 * Scan to verify (api/orders/scan.ts): open an order's check by its tracking number, scan its items, reset it; the
 * open batches to scan by. Every answer is the order, its check (lines scanned/required) and the batch's progress.
 */

const SCAN_ENDPOINT = '/api/orders/scan';

export const scanKeys = {
  all: ['scan'] as const,
  batches: () => [...scanKeys.all, 'batches'] as const,
  detail: (orderId: string) => [...scanKeys.all, 'check', orderId] as const,
  settings: () => [...scanKeys.all, 'settings'] as const,
};

export function useScanBatches() {
  return useQuery({
    queryKey: scanKeys.batches(),
    queryFn: () => apiData<ScanBatch[]>(`${SCAN_ENDPOINT}/batches`),
  });
}

export const scanTracking = (trackingNumber: string, batchId: string | null) =>
  api<Answer<ScanState>>(`${SCAN_ENDPOINT}/tracking`, {
    method: 'POST',
    body: { tracking_number: trackingNumber, ...(batchId ? { batch_id: batchId } : {}) },
  });

/** An id for one scan, so a resent request counts once (crypto.randomUUID needs a secure context). */
const scanId = () =>
  typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;

/** An item scanned on the open check; `quantity` above 1 needs the bulk scan control's quantity entry. */
export const scanItem = (orderId: string, itemCode: string, quantity = 1) =>
  api<Answer<ScanState>>(`${SCAN_ENDPOINT}/item`, {
    method: 'POST',
    body: {
      order_id: orderId,
      item_code: itemCode,
      scan_id: scanId(),
      ...(quantity > 1 ? { quantity } : {}),
    },
  });

/** A serial number scanned for the line the last item counted on (the drawer's rules: one per unit, none twice). */
export const scanSerial = (orderId: string, lineId: string, serialNumber: string) =>
  api<Answer<ScanState>>(`${SCAN_ENDPOINT}/serial`, {
    method: 'POST',
    body: { order_id: orderId, line_id: lineId, serial_number: serialNumber, scan_id: scanId() },
  });

/** One item scanned for a batch: every single-unit order of it in the batch is scanned (bulk scan control). */
export const scanBatchItem = (batchId: string, itemCode: string) =>
  api<Answer<BulkAnswer>>(`${SCAN_ENDPOINT}/bulk`, {
    method: 'POST',
    body: { batch_id: batchId, item_code: itemCode },
  });

// ---- bulk scan control ----

const SETTINGS_ENDPOINT = '/api/orders/scan-settings';

export function useScanSettings() {
  return useQuery({
    queryKey: scanKeys.settings(),
    queryFn: () => apiData<ScanSettingsAnswer>(SETTINGS_ENDPOINT),
  });
}

export function useSaveScanSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ScanSettingsBody) =>
      api<Answer<ScanSettingsAnswer>>(SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(scanKeys.settings(), answer.data),
  });
}

export const resetScan = (orderId: string) =>
  api<Answer<ScanState>>(`${SCAN_ENDPOINT}/reset`, { method: 'POST', body: { order_id: orderId } });

export const loadCheck = (orderId: string) => apiData<ScanState>(`${SCAN_ENDPOINT}/check/${orderId}`);
