import { z } from 'zod';

/** A write's idempotency key (header `Idempotency-Key` or body `idempotency_key`): 1 to 100 printable characters. */
export const IDEMPOTENCY_KEY_MAX = 100;
export const IDEMPOTENCY_KEY_SHAPE = /^[\x21-\x7e]+$/;

/** A body's `idempotency_key`, else `message` (a `rule(code, key)`). */
export const idempotencyKeyField = (message: string) =>
  z
    .string({ error: message })
    .min(1, message)
    .max(IDEMPOTENCY_KEY_MAX, message)
    .regex(IDEMPOTENCY_KEY_SHAPE, message);
