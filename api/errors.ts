import { DomainError, type RefusalParams } from '@domain/shared/errors';

export { refusalAnswer, refusalErrors } from '@commands/support/refusal';
export { rule as invalid } from './contracts/rules';

/**
 * A refusal of the API itself (no session, no permission, no such record): a DomainError with its answer inline,
 * answered by the one error handler like every other refusal.
 */
export class ApiError extends DomainError {
  override name = 'ApiError';
  constructor(status: number, code: number, key: string, params: RefusalParams = {}) {
    super(key, params, { status, code, key });
  }
  get status(): number {
    return this.refusal.status;
  }
  get key(): string {
    return this.refusal.key;
  }
}

export const notFound = () => new ApiError(404, 404, 'common.no_record_found');
export const unauthorized = (key = 'auth.unauthenticated') => new ApiError(401, 401, key);
export const forbidden = () => new ApiError(403, 403, 'auth.forbidden');

/** The record, or the 404 of one the caller cannot see. */
export function found<T>(record: T | null | undefined): T {
  if (record === null || record === undefined) throw notFound();
  return record;
}
