import { ok } from '@api/answers';
import { OAuthError, TokenAnswer, TokenRequest } from '@api/contracts/auth';
import { router } from '@api/route';
import { type SignInDeps, signIn, signOut } from '@commands/accounts/sign-in';
import { translate } from '@infra/i18n';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from './session';

/**
 * POST /oauth/token (OAuth 2.0 password grant, public, answering in OAuth's own shape) and POST /api/logout (any
 * signed-in user); the rules are in commands/accounts/sign-in.ts.
 */

export type AuthDeps = SignInDeps;

export const authRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const route = router(app, { tags: ['session'] });

  route.post(
    '/oauth/token',
    {
      summary: 'Sign in (password grant)',
      access: 'public',
      body: TokenRequest,
      raw: { 200: TokenAnswer, 400: OAuthError, 401: OAuthError, 429: OAuthError },
    },
    async (request, reply) => {
      const result = await signIn(deps, { address: request.ip }, request.body);
      if ('token' in result) return result.token;
      const { status, error, key } = result.refused;
      return reply.code(status).send({ error, error_description: translate(request.language, key) });
    },
  );

  route.post(
    '/api/logout',
    { summary: 'Sign out: revokes the bearer token', access: 'signed-in', answer: z.null() },
    async (request) => {
      await signOut(deps, signedIn(request));
      return ok(request, null, 'auth.signed_out');
    },
  );
};
