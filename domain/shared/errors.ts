/**
 * A command the domain refuses: `code` is one of the aggregate's closed set of error codes, `params` what the
 * message needs. The API maps codes to HTTP statuses and translated messages.
 */
export class DomainError<Code extends string = string> extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: Code,
    readonly params: Record<string, string | number> = {},
  ) {
    super(code);
  }
}
