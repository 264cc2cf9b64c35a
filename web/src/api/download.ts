import { ApiFailure, clearSession, getToken } from '@web/api/client';
import { storedLanguage } from '@web/i18n';

/**
 * Files the API makes (exports, label PDFs): fetched with the bearer token — a plain link cannot carry it — then
 * handed to the browser as an object URL on a temporary link. A refusal from the server throws ApiFailure with its
 * message; anything else (the network, the browser refusing the download) throws DownloadDenied, which the screens
 * show as the spec's "Browser denied file download...".
 */

export class DownloadDenied extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'DownloadDenied';
  }
}

export interface DownloadRequest {
  method?: 'GET' | 'POST';
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** The file name when the server does not name one. */
  fileName: string;
}

function withQuery(path: string, query?: DownloadRequest['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined) params.set(key, String(value));
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

/** The name in `Content-Disposition: attachment; filename="…"` (or filename*=UTF-8''…). */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (encoded?.[1]) {
    try {
      return decodeURIComponent(encoded[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() ?? null;
}

/** Hands a blob to the browser as a file download. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = fileName;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click starts the download synchronously; the URL is kept a moment for browsers that read it late.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }
}

/** Downloads a file from the API; resolves with the file name once the browser was given it. */
export async function downloadFile(path: string, request: DownloadRequest): Promise<string> {
  const headers: Record<string, string> = { language: storedLanguage(), accept: '*/*' };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(withQuery(path, request.query), {
      method: request.method ?? (request.body === undefined ? 'GET' : 'POST'),
      headers,
      body: request.body === undefined ? null : JSON.stringify(request.body),
    });
  } catch (error) {
    throw new DownloadDenied(error);
  }
  if (!response.ok) {
    let code = response.status;
    let msg = response.statusText || `HTTP ${response.status}`;
    try {
      const body = (await response.json()) as { code?: unknown; msg?: unknown };
      if (typeof body.code === 'number') code = body.code;
      if (typeof body.msg === 'string') msg = body.msg;
    } catch {
      // not a JSON refusal: keep the status text
    }
    // The 401 rule: a session that ended signs the tab out (the router then shows the login page).
    if (response.status === 401) clearSession();
    throw new ApiFailure(response.status, code, msg);
  }
  let blob: Blob;
  try {
    blob = await response.blob();
  } catch (error) {
    throw new DownloadDenied(error);
  }
  const fileName = fileNameOf(response.headers.get('content-disposition')) ?? request.fileName;
  try {
    saveBlob(blob, fileName);
  } catch (error) {
    throw new DownloadDenied(error);
  }
  return fileName;
}
