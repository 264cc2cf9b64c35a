import type { ScanAnswer, ScanBatch } from '@api/contracts/scan';
import { BATCHES_VIEW, ORDER_COUNTS_VIEW, SCAN_CHECKS_VIEW } from '@domain/shared/live-views';
import { useQuery } from '@tanstack/react-query';
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

export const scanItem = (orderId: string, itemCode: string) =>
  api<Answer<ScanState>>(`${SCAN_ENDPOINT}/item`, {
    method: 'POST',
    body: { order_id: orderId, item_code: itemCode, scan_id: scanId() },
  });

export const resetScan = (orderId: string) =>
  api<Answer<ScanState>>(`${SCAN_ENDPOINT}/reset`, { method: 'POST', body: { order_id: orderId } });

export const loadCheck = (orderId: string) => apiData<ScanState>(`${SCAN_ENDPOINT}/check/${orderId}`);
