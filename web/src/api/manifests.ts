import type { ManifestInvoice } from '@api/contracts/manifests';
import { useQuery } from '@tanstack/react-query';
import { apiData } from './client';
import { downloadFile } from './download';

/** The manifest invoice (api/orders/manifests.ts): a month's billing view per carrier, and its CSV. */

const INVOICE_ENDPOINT = '/api/orders/manifest-invoice';

export const manifestKeys = {
  all: ['manifests'] as const,
  invoice: (month: string) => [...manifestKeys.all, 'invoice', month] as const,
};

export function useManifestInvoice(month: string) {
  return useQuery({
    queryKey: manifestKeys.invoice(month),
    queryFn: () => apiData<ManifestInvoice>(INVOICE_ENDPOINT, { query: { month } }),
    enabled: month !== '',
  });
}

export const downloadManifestInvoice = (month: string) =>
  downloadFile(`${INVOICE_ENDPOINT}/export`, { query: { month }, fileName: `manifest-invoice-${month}.csv` });

/** This month where the browser is, YYYY-MM: the month a manifest screen opens on, and the latest it offers. */
export const thisMonth = () => {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
};
