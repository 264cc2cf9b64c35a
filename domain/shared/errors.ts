/**
 * How a refusal answers a caller: the HTTP status, the catalogue's result code (spec §8) and the message key in
 * `locales/<lang>/api*.json`. Each domain lists its error codes with one of these beside each, so the one error
 * handler of the API answers every refusal without a mapper of its own per route.
 */
export interface Refusal {
  readonly status: number;
  readonly code: number;
  readonly key: string;
}

export type RefusalParams = Record<string, string | number>;

/** A closed set of error codes, each with the answer it gives. */
export type ErrorTable<Code extends string = string> = { readonly [C in Code]: Refusal };

/**
 * A command the domain refuses: `code` is one of the aggregate's closed set of error codes, `params` what the
 * message needs, `refusal` the answer its table gives it; `fields`, when the request earned several refusals, each
 * by the body field it is about (the first is this one).
 */
export class DomainError<Code extends string = string> extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: Code,
    readonly params: RefusalParams,
    readonly refusal: Refusal,
    readonly fields: readonly FieldRefusal[] = [],
  ) {
    super(code);
  }
}

/** One body field's refusal among those a request earned. */
export interface FieldRefusal {
  readonly field: string;
  readonly error: DomainError;
}

/**
 * Every refusal a request earned, as one: the first decides the answer's code and message and each is listed by its
 * field, so a form is put right in one go rather than one refusal per submit. Nothing when nothing was refused.
 */
export function refusedTogether(found: readonly FieldRefusal[]): DomainError | undefined {
  const [first] = found;
  if (!first) return undefined;
  const { code, params, refusal } = first.error;
  return new DomainError(code, params, refusal, found);
}

/**
 * The refusal factory of one error table: `const refuse = refuser(stockErrors); throw refuse('NEGATIVE_STOCK')`.
 * Parameters that every refusal of the table carries (a limit the message names) come from `common`.
 */
export function refuser<Code extends string>(table: ErrorTable<Code>, common: RefusalParams = {}) {
  return (code: Code, params: RefusalParams = {}): DomainError<Code> =>
    new DomainError(code, { ...common, ...params }, table[code]);
}

/**
 * The refusal `error` is, when it is one (of one of `codes`, when given): code that decides what to do next on a
 * refusal (skip the order, retry as another command) asks this rather than testing the class.
 */
export function refusalOf<Code extends string = string>(
  error: unknown,
  ...codes: Code[]
): DomainError<Code> | undefined {
  if (!(error instanceof DomainError)) return undefined;
  if (codes.length > 0 && !codes.includes(error.code as Code)) return undefined;
  return error as DomainError<Code>;
}
