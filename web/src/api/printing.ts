import {
  type DocumentSettingsAnswer,
  MAX_PRINT_ORDERS,
  type PrintLogRow,
  type PrintSettingsAnswer,
  type PrintSettingsBody,
} from '@api/contracts/printing';
import { PRINT_DOCUMENTS, PRINT_ORIGINS, type PrintDocument, type PrintOrigin } from '@domain/orders/order';
import {
  ADDRESS_DISPLAYS,
  DRAWN_DOCUMENTS,
  type DrawnDocument,
  FONT_SIZES,
  LOGO_POSITIONS,
} from '@domain/printing/settings';
import { PRINT_LOG_VIEW } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, ApiFailure, api, apiData, clearSession, getToken } from '@web/api/client';
import { storedLanguage } from '@web/i18n';

export { PRINT_LOG_VIEW };

/**
 * Printing order documents (api/orders/print.ts, print-settings.ts): the PDF of one or many orders, the print
 * settings with the logo, and the print log. Also what the order board calls to print a selection: `printRoute`
 * and `openPrint` open /orders/print in a new tab, which fetches the PDF (the token cannot ride on a plain link).
 */

export const PRINT_ENDPOINT = '/api/orders/print';
export const PRINT_SETTINGS_ENDPOINT = '/api/orders/print-settings';
export const PRINT_LOGO_ENDPOINT = '/api/orders/print-settings/logo';
export const PRINT_LOG_ENDPOINT = '/api/orders/print-log';

export {
  ADDRESS_DISPLAYS,
  DRAWN_DOCUMENTS,
  type DrawnDocument,
  FONT_SIZES,
  LOGO_POSITIONS,
  MAX_PRINT_ORDERS,
  PRINT_DOCUMENTS,
  PRINT_ORIGINS,
  type PrintDocument,
  type PrintOrigin,
};
export const SETTINGS_KEY = 'orders-customize-delivery-order';
export const PRINT_KEYS = [
  'orders-new-order',
  'orders-unscan',
  'orders-view-all',
  'orders-batch',
  'orders-order-by-task',
];

export type { DocumentSettingsAnswer, PrintLogRow, PrintSettingsAnswer, PrintSettingsBody };

export const isPrintDocument = (value: string | null): value is PrintDocument =>
  PRINT_DOCUMENTS.includes(value as PrintDocument);
export const isPrintOrigin = (value: string | null): value is PrintOrigin =>
  PRINT_ORIGINS.includes(value as PrintOrigin);

/** The console route that prints `document` of `orderIds` (from `origin`). */
export function printRoute(
  document: PrintDocument,
  orderIds: readonly string[],
  origin: PrintOrigin,
): string {
  const query = new URLSearchParams({ document, origin, ids: orderIds.join(',') });
  return `/orders/print?${query}`;
}

/** Opens the print route in a new tab (the console's hash router; the new tab shares the stored token). */
export function openPrint(document: PrintDocument, orderIds: readonly string[], origin: PrintOrigin): void {
  window.open(`${window.location.pathname}#${printRoute(document, orderIds, origin)}`, '_blank', 'noopener');
}

const authHeaders = (): Record<string, string> => {
  const headers: Record<string, string> = { language: storedLanguage() };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
};

async function refusalOf(response: Response): Promise<ApiFailure> {
  let code = response.status;
  let msg = response.statusText || `HTTP ${response.status}`;
  try {
    const body = (await response.json()) as { code?: unknown; msg?: unknown };
    if (typeof body.code === 'number') code = body.code;
    if (typeof body.msg === 'string') msg = body.msg;
  } catch {
    // not a JSON refusal: the status says enough
  }
  if (response.status === 401) clearSession();
  return new ApiFailure(response.status, code, msg);
}

/** The PDF of `document` for the orders (each print is recorded on the order and in the print log). */
export async function fetchPdf(
  document: PrintDocument,
  orderIds: readonly string[],
  origin: PrintOrigin,
): Promise<{ blob: Blob; fileName: string }> {
  let response: Response;
  try {
    response = await fetch(PRINT_ENDPOINT, {
      method: 'POST',
      headers: { ...authHeaders(), 'content-type': 'application/json', accept: 'application/pdf' },
      body: JSON.stringify({ document, order_ids: orderIds, origin }),
    });
  } catch (error) {
    throw new ApiFailure(0, -1, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw await refusalOf(response);
  const disposition = response.headers.get('content-disposition') ?? '';
  const fileName = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${document}.pdf`;
  return { blob: await response.blob(), fileName };
}

export const printKeys = {
  settings: ['printing', 'settings'] as const,
  logo: ['printing', 'logo'] as const,
};

export function usePrintSettings() {
  return useQuery({
    queryKey: printKeys.settings,
    queryFn: () => apiData<PrintSettingsAnswer>(PRINT_SETTINGS_ENDPOINT),
  });
}

export function useSavePrintSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PrintSettingsBody) =>
      api<Answer<PrintSettingsAnswer>>(PRINT_SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(printKeys.settings, answer.data),
  });
}

/** The logo image as an object URL, or null when there is none. */
export function useLogoUrl(present: boolean, version: string | null) {
  return useQuery({
    queryKey: [...printKeys.logo, version],
    enabled: present,
    queryFn: async () => {
      const response = await fetch(PRINT_LOGO_ENDPOINT, { headers: authHeaders() });
      if (!response.ok) return null;
      return URL.createObjectURL(await response.blob());
    },
  });
}

export function useUploadLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      let response: Response;
      try {
        response = await fetch(PRINT_LOGO_ENDPOINT, {
          method: 'PUT',
          headers: { ...authHeaders(), 'content-type': file.type || 'application/octet-stream' },
          body: file,
        });
      } catch (error) {
        throw new ApiFailure(0, -1, error instanceof Error ? error.message : String(error));
      }
      if (!response.ok) throw await refusalOf(response);
      return (await response.json()) as Answer<PrintSettingsAnswer>;
    },
    onSuccess: (answer) => queryClient.setQueryData(printKeys.settings, answer.data),
  });
}

export function useRemoveLogo() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<Answer<PrintSettingsAnswer>>(PRINT_LOGO_ENDPOINT, { method: 'DELETE' }),
    onSuccess: (answer) => queryClient.setQueryData(printKeys.settings, answer.data),
  });
}

/** Sends an image as the request body (returns' attachments). */
export async function uploadImage<Data>(path: string, file: File): Promise<Answer<Data>> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: { ...authHeaders(), 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch (error) {
    throw new ApiFailure(0, -1, error instanceof Error ? error.message : String(error));
  }
  if (!response.ok) throw await refusalOf(response);
  return (await response.json()) as Answer<Data>;
}

/** A file from an API path as an object URL (images behind the token). */
export async function objectUrlOf(path: string): Promise<string | null> {
  const response = await fetch(path, { headers: authHeaders() });
  if (!response.ok) return null;
  return URL.createObjectURL(await response.blob());
}
