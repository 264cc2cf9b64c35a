import { type DomainError, refusalOf } from '@domain/shared/errors';
import { type Language, translate } from '@infra/i18n';

/**
 * A refusal as the caller reads it: its status, the catalogue's code and the message in the caller's language. The
 * API's error handler answers with it; so do the answers that carry a refusal in a shape of their own (a bulk
 * action's per-order result, the store callback's `error: 1`).
 */
export function refusalAnswer(refused: DomainError, language: Language) {
  const { status, code, key } = refused.refusal;
  return { status, code, msg: translate(language, key, refused.params) };
}

/** The answer's `errors` of a refusal that names several fields (`body/<field>` as validation names them). */
export function refusalErrors(refused: DomainError, language: Language) {
  if (refused.fields.length === 0) return undefined;
  return refused.fields.map(({ field, error }) => ({
    path: `body/${field}`,
    message: translate(language, error.refusal.key, error.params),
  }));
}

/**
 * One item of a command over several (a bulk edit, a copy): its value when it went through, or its refusal as the
 * caller reads it (code and message) so the others go on; anything but a refusal is thrown.
 */
export async function eachRefusable<T>(
  language: Language,
  work: () => Promise<T>,
): Promise<{ value: T } | { refused: { code: number; msg: string } }> {
  try {
    return { value: await work() };
  } catch (error) {
    const refused = refusalOf(error);
    if (!refused) throw error;
    const { code, msg } = refusalAnswer(refused, language);
    return { refused: { code, msg } };
  }
}
