import { ErrorAnswer, Ok, ok } from '@api/answers';
import { OAuthError, TokenAnswer, TokenRequest, UnlockRequest } from '@api/contracts/auth';
import { router } from '@api/route';
import { unlockMail } from '@commands/accounts/mail';
import { type SignInDeps, signIn, signOut } from '@commands/accounts/sign-in';
import { unlockSignIn } from '@commands/accounts/unlock';
import { translate } from '@infra/i18n';
import type { Mailer } from '@infra/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedIn } from './session';

/**
 * POST /oauth/token (OAuth 2.0 password grant, public, answering in OAuth's own shape), POST /api/sign-in/unlock
 * (the e-mailed unlock link, public) and POST /api/logout (any signed-in user); the rules are in
 * commands/accounts/sign-in.ts and unlock.ts.
 */

export type AuthDeps = Omit<SignInDeps, 'mailUnlock'> & {
  mailer: Mailer;
  /** Where the console is reached, for the unlock link. */
  publicUrl: string;
};

export const authRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const route = router(app, { tags: ['session'] });

  route.post(
    '/oauth/token',
    {
      summary: 'Sign in (password grant)',
      access: 'public',
      body: TokenRequest,
      raw: { 200: TokenAnswer, 400: OAuthError, 401: OAuthError, 403: OAuthError, 429: OAuthError },
    },
    async (request, reply) => {
      const mailUnlock = unlockMail(
        deps.mailer,
        deps.publicUrl,
        request.language,
        deps.signInLimits.unlockMinutes,
      );
      const visitor = { address: request.ip, userAgent: request.headers['user-agent'] ?? '' };
      const result = await signIn({ ...deps, mailUnlock }, visitor, request.body);
      if ('token' in result) return result.token;
      const { status, error, key, retryAfter } = result.refused;
      if (retryAfter) reply.header('retry-after', String(retryAfter));
      return reply
        .code(status)
        .send({ error, error_description: translate(request.language, key, { count: retryAfter ?? 0 }) });
    },
  );

  route.post(
    '/api/sign-in/unlock',
    {
      summary:
        'Open an e-mailed unlock link: this address may sign in past the account’s failure ceiling a while',
      access: 'public',
      body: UnlockRequest,
      raw: { 200: Ok(z.null()), 400: ErrorAnswer, 429: ErrorAnswer },
    },
    async (request) => {
      await unlockSignIn(deps, { address: request.ip }, request.body);
      return ok(request, null, 'auth.unlocked');
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
