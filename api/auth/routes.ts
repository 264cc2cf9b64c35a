import { type SignInDeps, signIn, signOut } from '@commands/accounts/sign-in';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Ok, ok, refusals } from '../answers';
import { OAuthError, TokenAnswer, TokenRequest } from '../contracts/auth';
import { signedIn } from './session';

/**
 * POST /oauth/token (OAuth 2.0 password grant, answering in OAuth's own shape) and POST /api/logout; the rules are in
 * commands/accounts/sign-in.ts.
 */

export type AuthDeps = SignInDeps;

export const authRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  app.post(
    '/oauth/token',
    {
      config: { access: 'public' },
      schema: {
        tags: ['session'],
        summary: 'Sign in (password grant)',
        body: TokenRequest,
        response: { 200: TokenAnswer, 400: OAuthError, 401: OAuthError, 429: OAuthError },
      },
    },
    async (request, reply) => {
      const result = await signIn(deps, { address: request.ip }, request.body);
      if ('token' in result) return result.token;
      const { status, error, key } = result.refused;
      return reply.code(status).send({ error, error_description: translate(request.language, key) });
    },
  );

  app.post(
    '/api/logout',
    {
      config: { access: 'signed-in' },
      schema: {
        tags: ['session'],
        summary: 'Sign out: revokes the bearer token',
        response: { 200: Ok(z.null()), ...refusals },
      },
    },
    async (request) => {
      await signOut(deps, signedIn(request));
      return ok(request, null, 'auth.signed_out');
    },
  );
};
