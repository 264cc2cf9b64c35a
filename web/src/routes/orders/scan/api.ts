import { BATCHES_VIEW, ORDER_COUNTS_VIEW, SCAN_CHECKS_VIEW } from '@domain/shared/live-views';
import { useQuery } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';

export { BATCHES_VIEW, ORDER_COUNTS_VIEW, SCAN_CHECKS_VIEW };

/**
 * Scan to verify (api/orders/scan.ts): open an order's check by its tracking number, scan its items, reset it; the
 * open batches to scan by. Every answer is the order, its check (lines scanned/required) and the batch's progress.
 */

const SCAN_ENDPOINT = '/api/orders/scan';
/** Live view of the batches projection naming orders whose check moved. */
/** The order board's view of orders that changed status (a batch's progress follows it). */

export interface Person {
  id: string;
  name: string | null;
}

export interface CheckLine {
  line_id: string;
  code: string;
  name: string;
  required: number;
  scanned: number;
}

export interface ScanState {
  order: { id: string; order_number: string; tracking_number: string | null; status: string };
  check: {
    status: 'open' | 'completed' | 'idle';
    round: number;
    picker: Person | null;
    lines: CheckLine[];
    scanned: number;
    required: number;
    completed: boolean;
  };
  scanned_line: string | null;
  batch: { id: string; label: string; name: string; total_orders: number; scanned_orders: number } | null;
}

export interface ScanBatch {
  id: string;
  label: string;
  name: string;
  total_orders: number;
  scanned_orders: number;
  picker: Person | null;
}

export const scanKeys = {
  all: ['scan'] as const,
  batches: () => [...scanKeys.all, 'batches'] as const,
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
