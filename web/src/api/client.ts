import { CONSOLE_CLIENT_ID, type TokenAnswer } from '@api/contracts/auth';
import { ADMIN_LOGIN_PATH, LOGIN_PATH, loginPathFor, PERMISSION_KEY, TOKEN_KEY } from '@web/config';
import { storedLanguage } from '@web/i18n';

/**
 * Every call to the API (spec §7): the stored token as a bearer, the stored language in the `language` header, JSON
 * both ways. A failure throws ApiFailure with the server's catalogue code and (already translated) message. Any 401
 * but the logout call's own signs the user out and sends them to the login page with the reason in the query.
 */

export interface FieldError {
  path: string;
  message: string;
}

export class ApiFailure extends Error {
  status: number;
  code: number;
  msg: string;
  errors?: FieldError[];

  constructor(status: number, code: number, msg: string, errors?: FieldError[]) {
    super(msg);
    this.name = 'ApiFailure';
    this.status = status;
    this.code = code;
    this.msg = msg;
    if (errors) this.errors = errors;
  }
}

export interface ApiOptions {
  method?: string;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
}

export interface Answer<T> {
  code: number;
  msg: string;
  data: T;
}

// ---- the stored session -------------------------------------------------------------------------------------

const SESSION_EVENT = 'kedai:session';

/** The login route a 401 sent the user to, for a few seconds (see routeAfterSignOut). */
let afterSignOut: { route: string; at: number } | null = null;
const SIGN_OUT_ROUTE_TTL_MS = 5_000;

export const getToken = (): string | null => localStorage.getItem(TOKEN_KEY);

export function setToken(token: string) {
  afterSignOut = null;
  localStorage.setItem(TOKEN_KEY, token);
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/** Forgets the token and everything kept for the session (the permission map, bulk-edit state). */
export function clearSession() {
  localStorage.removeItem(TOKEN_KEY);
  sessionStorage.clear();
  window.dispatchEvent(new Event(SESSION_EVENT));
}

/** Calls back when the token is stored or removed, in this tab or another one. */
export function onSessionChange(listener: () => void): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_KEY || event.key === null) listener();
  };
  window.addEventListener(SESSION_EVENT, listener);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(SESSION_EVENT, listener);
    window.removeEventListener('storage', onStorage);
  };
}

export const cachedPermissions = (): Record<string, boolean> | null => {
  try {
    const raw = sessionStorage.getItem(PERMISSION_KEY);
    return raw ? (JSON.parse(raw) as Record<string, boolean>) : null;
  } catch {
    return null;
  }
};

export const cachePermissions = (permissions: Record<string, boolean>) =>
  sessionStorage.setItem(PERMISSION_KEY, JSON.stringify(permissions));

// ---- the 401 rule ---------------------------------------------------------------------------------------------

const LOGOUT_PATH = '/api/logout';

/** The hash route the user is on, e.g. `/settings/users?x=1`. */
export const currentRoute = () => window.location.hash.replace(/^#/, '') || '/';

/**
 * The login route a 401 just sent the user to. The router's own "no token → login" redirect uses it, so whichever
 * of the two runs last, the user lands on the login page that carries the reason.
 */
export function routeAfterSignOut(): string | null {
  return afterSignOut && Date.now() - afterSignOut.at < SIGN_OUT_ROUTE_TTL_MS ? afterSignOut.route : null;
}

function signOutAfter401(message: string) {
  const from = currentRoute();
  if (from.startsWith(LOGIN_PATH) || from.startsWith(ADMIN_LOGIN_PATH.replace(/\/$/, ''))) {
    clearSession();
    return;
  }
  const query = new URLSearchParams({
    redirect: from,
    error: '1',
    msg: message,
    status: '401',
    message,
    code: '401',
  });
  afterSignOut = { route: `${loginPathFor(from)}?${query}`, at: Date.now() };
  window.location.hash = `#${afterSignOut.route}`;
  clearSession();
}

// ---- calls ------------------------------------------------------------------------------------------------------

function urlOf(path: string, query?: ApiOptions['query']) {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}${path.includes('?') ? '&' : '?'}${text}` : path;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export async function api<T>(path: string, opts: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', language: storedLanguage() };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(urlOf(path, opts.query), {
      method: opts.method ?? (opts.body === undefined ? 'GET' : 'POST'),
      headers,
      body: opts.body === undefined ? null : JSON.stringify(opts.body),
    });
  } catch (error) {
    throw new ApiFailure(0, -1, error instanceof Error ? error.message : String(error));
  }
  const body = await readBody(response);
  if (response.ok) return body as T;

  const record = isRecord(body) ? body : {};
  const msg =
    typeof record.msg === 'string'
      ? record.msg
      : typeof record.error_description === 'string'
        ? record.error_description
        : response.statusText || `HTTP ${response.status}`;
  const code = typeof record.code === 'number' ? record.code : response.status;
  const errors = Array.isArray(record.errors) ? (record.errors as FieldError[]) : undefined;
  if (response.status === 401 && !path.startsWith(LOGOUT_PATH)) signOutAfter401(msg);
  throw new ApiFailure(response.status, code, msg, errors);
}

/** The `data` of a `{code, msg, data}` answer. */
export async function apiData<T>(path: string, opts?: ApiOptions): Promise<T> {
  return (await api<Answer<T>>(path, opts)).data;
}

// ---- signing in (OAuth's own answer shape) --------------------------------------------------------------------

/** An endpoint with its query (a grid adds its own paging to it); empty values are left out. */
export function withQuery(path: string, query: Record<string, string | boolean | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== '' && value !== false) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export type { TokenAnswer };

/** A refused sign-in: OAuth's `error` (e.g. `invalid_grant`, `email_not_verified`) and the translated description. */
export class SignInFailure extends Error {
  error: string;
  /** Seconds before this device may try again (the answer's Retry-After), when it must wait. */
  retryAfter?: number;
  constructor(error: string, description: string, retryAfter?: number) {
    super(description);
    this.name = 'SignInFailure';
    this.error = error;
    this.retryAfter = retryAfter;
  }
}

export async function requestToken(username: string, password: string, admin = false): Promise<TokenAnswer> {
  let response: Response;
  try {
    response = await fetch('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', language: storedLanguage() },
      body: JSON.stringify({
        grant_type: 'password',
        // A public client (OAuth 2.1: a browser app cannot keep a secret): its id alone.
        client_id: CONSOLE_CLIENT_ID,
        username,
        password,
        ...(admin ? { scope: 'admin' } : {}),
      }),
    });
  } catch (error) {
    throw new SignInFailure('network', error instanceof Error ? error.message : String(error));
  }
  const body = await readBody(response);
  const record = isRecord(body) ? body : {};
  if (response.ok && typeof record.access_token === 'string') return body as TokenAnswer;
  throw new SignInFailure(
    typeof record.error === 'string' ? record.error : 'invalid_request',
    typeof record.error_description === 'string'
      ? record.error_description
      : typeof record.msg === 'string'
        ? record.msg
        : response.statusText,
    Number(response.headers.get('retry-after')) || undefined,
  );
}
