import type { MessageParams } from './i18n';

/**
 * A refusal the caller should see: an HTTP 4xx status, the catalogue's result code (spec §8) and a message key in
 * locales/<lang>/api.json. The error handler translates the key into the caller's language.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: number,
    readonly key: string,
    readonly params: MessageParams = {},
  ) {
    super(key);
  }
}

export const notFound = () => new ApiError(404, 404, 'common.no_record_found');
export const unauthorized = (key = 'auth.unauthenticated') => new ApiError(401, 401, key);
export const forbidden = () => new ApiError(403, 403, 'auth.forbidden');

/**
 * A zod issue message that carries a catalogue code and message key, so a validation failure answers with the
 * spec's code and message (for example 410 "Name is required" for a category) rather than a generic 400:
 * `z.string({ error: invalid(410, 'category.name_required') })`.
 */
export function invalid(code: number, key: string, params: MessageParams = {}): string {
  return `@${code}|${key}|${JSON.stringify(params)}`;
}

export function parseInvalid(
  message: string,
): { code: number; key: string; params: MessageParams } | undefined {
  const match = /^@(\d+)\|([^|]+)\|(.*)$/s.exec(message);
  if (!match) return undefined;
  return { code: Number(match[1]), key: match[2]!, params: JSON.parse(match[3]!) as MessageParams };
}
