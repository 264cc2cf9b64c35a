import { storedLanguage } from '@web/i18n';
import { ApiFailure, clearSession, getToken } from './client';

/**
 * Bulk files (CSV or XLSX) sent as the request body itself, not multipart, named by `?filename=`; a file with any bad
 * row is refused whole with every bad row listed.
 */

export interface UploadRowError {
  row: number;
  column: string | null;
  /** The problem's result code, where the upload gives one (listings). */
  code?: number;
  message: string;
}

/** A file the server refused: a message and, for bad rows, every one of them (nothing was applied). */
export class UploadRefused extends ApiFailure {
  rows: UploadRowError[];
  constructor(status: number, code: number, msg: string, rows: UploadRowError[]) {
    super(status, code, msg);
    this.name = 'UploadRefused';
    this.rows = rows;
  }
}

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Sends the file to `path`; answers the server's data and message. */
export async function uploadFile<Data>(path: string, file: File): Promise<{ data: Data; msg: string }> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    language: storedLanguage(),
    'content-type': file.name.toLowerCase().endsWith('.xlsx') ? XLSX_TYPE : 'text/csv',
  };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${path}?${new URLSearchParams({ filename: file.name })}`, {
      method: 'POST',
      headers,
      body: file,
    });
  } catch (error) {
    throw new ApiFailure(0, -1, error instanceof Error ? error.message : String(error));
  }
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // an answer without JSON (a proxy's 413 page): the status says enough
  }
  const msg = typeof body.msg === 'string' ? body.msg : response.statusText || `HTTP ${response.status}`;
  if (response.ok) return { data: body.data as Data, msg };
  if (response.status === 401) clearSession();
  const code = typeof body.code === 'number' ? body.code : response.status;
  throw new UploadRefused(
    response.status,
    code,
    msg,
    Array.isArray(body.rows) ? (body.rows as UploadRowError[]) : [],
  );
}
