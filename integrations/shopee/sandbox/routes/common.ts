import type { z } from 'zod';
import type { SandboxShop } from '../state';

/** What every sandbox API route is made of, and the refusals they answer with (Shopee's codes and messages). */

export interface SandboxPartnerRef {
  partnerId: number;
}

/** A refused call: the HTTP status and Shopee's `error` and `message`. */
export class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    override readonly message: string,
  ) {
    super(message);
  }
}

export const wrongParameters = (detail: string) =>
  new Refusal(400, 'error_param', `Wrong parameters, detail: ${detail}`);
export const orderNotFound = () => wrongParameters('the order is not found.');
export const notReadyToShip = () =>
  new Refusal(400, 'logistics.invalid_status', 'logistic status not ready to ship');

export interface RouteContext {
  url: URL;
  body: unknown;
  partner: SandboxPartnerRef;
  /** `body: 'raw'` routes: the request's bytes and content type (multipart uploads). */
  raw?: Buffer;
  contentType?: string;
  /** Shop calls: the shop the access token belongs to. */
  shop: SandboxShop | undefined;
  /** Sandbox clock, ms. */
  now: number;
}

export interface Route {
  method: 'GET' | 'POST';
  level: 'public' | 'shop';
  /** `response`: data in the `response` object; `top`: beside `error` (auth, shop info); `file`: the bytes. */
  placement: 'response' | 'top' | 'file';
  /** POST bodies are JSON (default), or handed over as they came (`raw`). */
  body?: 'json' | 'raw';
  handle(context: RouteContext): unknown;
}

export type RouteTable = [path: string, route: Route][];

/** The request validated by the same schema the client uses; a failure is Shopee's error_param. */
export function parse<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw wrongParameters(
    result.error.issues.map((i) => `${i.path.join('.') || 'request'}: ${i.message}`).join('; '),
  );
}

const COMMON_PARAMS = new Set(['partner_id', 'timestamp', 'sign', 'access_token', 'shop_id']);

/** A GET call's request parameters, with numbers and comma-separated lists as the schema wants them. */
export function queryOf(url: URL, numbers: readonly string[] = [], lists: readonly string[] = []) {
  const query: Record<string, unknown> = {};
  for (const [key, value] of url.searchParams) {
    if (COMMON_PARAMS.has(key)) continue;
    if (numbers.includes(key)) query[key] = /^-?\d+$/.test(value) ? Number(value) : value;
    else if (lists.includes(key)) query[key] = value === '' ? [] : value.split(',');
    else query[key] = value;
  }
  return query;
}
