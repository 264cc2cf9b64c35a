import type { DomainError } from '@domain/shared/errors';
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
