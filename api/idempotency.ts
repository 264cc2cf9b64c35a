import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_KEY_SHAPE } from '@api/contracts/idempotency';
import type { ApiError } from '@api/errors';
import type { FastifyRequest } from 'fastify';

export { IDEMPOTENCY_KEY_MAX, idempotencyKeyField } from '@api/contracts/idempotency';

const isIdempotencyKey = (key: string) =>
  key.length >= 1 && key.length <= IDEMPOTENCY_KEY_MAX && IDEMPOTENCY_KEY_SHAPE.test(key);

/**
 * The idempotency key of a request: the `Idempotency-Key` header (one of the wrong shape is `invalid()`), else the
 * body's key; undefined without either. With `mismatch`, a header and a body key that differ are refused.
 */
export function idempotencyKeyOf(
  request: FastifyRequest,
  bodyKey: string | undefined,
  refusals: { invalid(): ApiError; mismatch?(): ApiError },
): string | undefined {
  const header = request.headers['idempotency-key'];
  const headerKey = Array.isArray(header) ? header[0] : header;
  if (headerKey !== undefined && !isIdempotencyKey(headerKey)) throw refusals.invalid();
  if (refusals.mismatch && headerKey !== undefined && bodyKey !== undefined && headerKey !== bodyKey) {
    throw refusals.mismatch();
  }
  return headerKey ?? bodyKey;
}
