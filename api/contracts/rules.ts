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

export function rule(code: number, key: string, params: RefusalParams = {}): string {
  const known = rules.get(key);
  if (known && known.code !== code)
    throw new Error(`validation message ${key} is named with codes ${known.code} and ${code}`);
  if (!known) rules.set(key, { code, key, params });
  return key;
}

/** The rule a zod issue's message names, if it names one. */
export function ruleOf(message: string | undefined): ValidationRule | undefined {
  return message === undefined ? undefined : rules.get(message);
}
