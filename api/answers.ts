import { type MessageParams, translate } from '@infra/i18n';
import type { FastifyRequest } from 'fastify';

export { ErrorAnswer, GridPage, GridQuery, Ok, refusals } from './contracts/common';

/** The success answer `{ code: 0, msg, data }`, its message in the caller's language. */
export function ok<Data>(request: FastifyRequest, data: Data, key = 'common.ok', params?: MessageParams) {
  return { code: 0 as const, msg: translate(request.language, key, params), data };
}
