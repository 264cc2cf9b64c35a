import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Request signing of the Shopee Open Platform v2 ("Authorization and Authentication", "API calls"):
 * HMAC-SHA256 with the partner key over a base string, as lower-case hex, sent as the `sign` query parameter.
 *
 * - Public APIs (auth/token/get, auth/access_token/get, the shop authorisation link):
 *   partner_id + api path + timestamp.
 * - Shop APIs: partner_id + api path + timestamp + access_token + shop_id.
 *
 * The path is the API path without host or query (`/api/v2/order/get_order_list`); the timestamp is Unix seconds
 * and is only accepted within 5 minutes of the server's clock.
 */

export const TIMESTAMP_WINDOW_SECONDS = 300;

export interface SignatureInput {
  partnerId: number;
  path: string;
  /** Unix seconds. */
  timestamp: number;
  /** Shop APIs only, together with shopId. */
  accessToken?: string;
  shopId?: number;
}

export function signatureBaseString(input: SignatureInput): string {
  const { partnerId, path, timestamp, accessToken, shopId } = input;
  if ((accessToken === undefined) !== (shopId === undefined))
    throw new TypeError('signatureBaseString: a shop call needs both accessToken and shopId');
  return accessToken === undefined
    ? `${partnerId}${path}${timestamp}`
    : `${partnerId}${path}${timestamp}${accessToken}${shopId}`;
}

/** The `sign` parameter: lower-case hex HMAC-SHA256 of the base string, keyed with the partner key's UTF-8 bytes. */
export function shopeeSign(partnerKey: string, input: SignatureInput): string {
  return createHmac('sha256', partnerKey).update(signatureBaseString(input)).digest('hex');
}

/** Constant-time check of a received `sign` (exactly 64 lower-case hex digits) against the expected one. */
export function signMatches(received: string, expected: string): boolean {
  if (!/^[0-9a-f]{64}$/.test(received)) return false;
  return timingSafeEqual(Buffer.from(received, 'hex'), Buffer.from(expected, 'hex'));
}

/** Whether a request timestamp (Unix seconds) is inside the 5-minute window around `nowSeconds`. */
export const timestampFresh = (timestamp: number, nowSeconds: number) =>
  Number.isInteger(timestamp) && Math.abs(nowSeconds - timestamp) <= TIMESTAMP_WINDOW_SECONDS;
