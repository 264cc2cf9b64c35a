import type { RefusalParams } from '@domain/shared/errors';

/**
 * Validation messages that answer with the catalogue's code (spec §8): a schema names a rule as its zod message
 * (`z.string().max(100, rule(410, 'category.name_too_long'))`), the message is the rule's key in
 * `locales/<lang>/api*.json`, and the API's error handler looks the code up here. A key means one code everywhere;
 * naming it again with another code is a mistake caught the moment the module loads.
 *
 * Zod only, no server imports: the console imports these contracts too.
 */
export interface ValidationRule {
  readonly code: number;
  readonly key: string;
  /** What the message needs that the failing check does not say itself (a field name). */
  readonly params: RefusalParams;
}

const rules = new Map<string, ValidationRule>();
const codes = new Map<string, number>();

/**
 * A rule named with parameters is told apart by them (its message is the key followed by them), so one key shared by
 * several fields names each its own field rather than the first one's.
 */
export function rule(code: number, key: string, params: RefusalParams = {}): string {
  const known = codes.get(key);
  if (known !== undefined && known !== code)
    throw new Error(`validation message ${key} is named with codes ${known} and ${code}`);
  codes.set(key, code);
  const message = Object.keys(params).length === 0 ? key : `${key} ${JSON.stringify(params)}`;
  if (!rules.has(message)) rules.set(message, { code, key, params });
  return message;
}

/** The rule a zod issue's message names, if it names one. */
export function ruleOf(message: string | undefined): ValidationRule | undefined {
  return message === undefined ? undefined : rules.get(message);
}
