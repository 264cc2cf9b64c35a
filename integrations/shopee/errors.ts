/**
 * What a Shopee call can fail with. Every error carries the platform's `error` code (or a code of ours for failures
 * that never reached an answer), its message, the `request_id` when there was one, the API path, and `retryable`:
 * whether the same call may succeed later without anyone changing anything (the import workflow retries those
 * with backoff; the others are shown on the store).
 */

export interface ShopeeErrorDetails {
  /** Shopee's `error` field (`error_sign`, `invalid_acceess_token`, `error_param`…), or ours: `timeout`, `network`. */
  code: string;
  message: string;
  path: string;
  requestId?: string;
  /** The HTTP status of the answer; absent when there was none. */
  status?: number;
}

export class ShopeeError extends Error {
  override name = 'ShopeeError';
  readonly code: string;
  readonly path: string;
  readonly requestId: string | undefined;
  readonly status: number | undefined;
  readonly retryable: boolean = false;

  constructor(details: ShopeeErrorDetails) {
    super(`Shopee ${details.path}: ${details.code}${details.message ? ` (${details.message})` : ''}`);
    this.code = details.code;
    this.path = details.path;
    this.requestId = details.requestId;
    this.status = details.status;
  }
}

/**
 * The shop's authorisation does not hold: an invalid or expired access token (after the client's one refresh),
 * a refused refresh token or authorisation code, or a shop no longer authorised to the partner.
 * `reauthorize` says the seller must go through the authorisation link again.
 */
export class ShopeeAuthError extends ShopeeError {
  override name = 'ShopeeAuthError';
  readonly reauthorize: boolean;
  constructor(details: ShopeeErrorDetails & { reauthorize?: boolean }) {
    super(details);
    this.reauthorize = details.reauthorize ?? false;
  }
}

/** Shopee refused the request's `sign` (`error_sign`, "Wrong sign.") or its timestamp (outside the 5-minute window). */
export class ShopeeSignatureError extends ShopeeError {
  override name = 'ShopeeSignatureError';
  override readonly retryable = true;
}

/** Too many requests (HTTP 429 or `error_too_many_request`); `retryAfterSeconds` from the Retry-After header. */
export class ShopeeRateLimitError extends ShopeeError {
  override name = 'ShopeeRateLimitError';
  override readonly retryable = true;
  readonly retryAfterSeconds: number | undefined;
  constructor(details: ShopeeErrorDetails & { retryAfterSeconds?: number }) {
    super(details);
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

/** The platform failed: an HTTP 5xx, or `error_server` / `error_inner` / `error_busi` in the answer. */
export class ShopeeServerError extends ShopeeError {
  override name = 'ShopeeServerError';
  override readonly retryable = true;
}

/** No answer within the client's timeout. The call may or may not have been carried out. */
export class ShopeeTimeoutError extends ShopeeError {
  override name = 'ShopeeTimeoutError';
  override readonly retryable = true;
}

/** The platform could not be reached (connection refused, reset, DNS). */
export class ShopeeNetworkError extends ShopeeError {
  override name = 'ShopeeNetworkError';
  override readonly retryable = true;
}

/**
 * The request itself is wrong (`error_param`, `error_not_found`, a logistics refusal such as shipping an order
 * that is not READY_TO_SHIP), found by Shopee or by the client before sending (then `requestId` is absent).
 */
export class ShopeeRequestError extends ShopeeError {
  override name = 'ShopeeRequestError';
}

/** The answer does not have the documented shape (not JSON, or a field of the wrong type). */
export class ShopeeProtocolError extends ShopeeError {
  override name = 'ShopeeProtocolError';
}

/** Codes of an access token Shopee no longer accepts (its own spelling included). */
export const ACCESS_TOKEN_ERRORS: ReadonlySet<string> = new Set([
  'invalid_acceess_token',
  'invalid_access_token',
]);

const SERVER_ERRORS: ReadonlySet<string> = new Set([
  'error_server',
  'error_inner',
  'error_inner_error',
  'error_busi',
  // "Our system is taking some time to respond, please try later." (the product calls' busy answer)
  'error_system_busy',
]);

/** The typed error for a failed answer (`error` non-empty, or an HTTP status that is not 2xx). */
export function errorFromAnswer(
  details: ShopeeErrorDetails & { retryAfterSeconds?: number },
): ShopeeError | ShopeeAuthError {
  const { code, status } = details;
  if (code === 'error_sign' || /invalid timestamp/i.test(details.message))
    return new ShopeeSignatureError(details);
  // An expired access token is the client's to refresh; the others need the seller to authorise the shop again.
  if (ACCESS_TOKEN_ERRORS.has(code)) return new ShopeeAuthError(details);
  if (code === 'error_auth' || code === 'error_permission')
    return new ShopeeAuthError({ ...details, reauthorize: true });
  if (status === 429 || code === 'error_too_many_request' || code === 'error_rate_limit')
    return new ShopeeRateLimitError(details);
  if ((status !== undefined && status >= 500) || SERVER_ERRORS.has(code))
    return new ShopeeServerError(details);
  return new ShopeeRequestError(details);
}

/**
 * Runs a Shopee call, and again after a failure that may pass (`retryable`: a timeout, a 5xx, the rate limit), at
 * most `attempts` times in all, waiting `backoffMs × attempt` between; any other failure, or the last, is thrown.
 * For a person waiting on the answer (a print, arranging a shipment); the order import retries through Temporal.
 */
export async function withPassingRetries<T>(
  call: () => Promise<T>,
  options: { attempts?: number; backoffMs?: number; wait?: (ms: number) => Promise<void> } = {},
): Promise<T> {
  const attempts = options.attempts ?? 3;
  const backoff = options.backoffMs ?? 300;
  const wait = options.wait ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof ShopeeError && error.retryable) || attempt >= attempts) throw error;
      await wait(backoff * attempt);
    }
  }
}
