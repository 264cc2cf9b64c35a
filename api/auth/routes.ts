import { decoyHash, newToken, sameText, tokenHash, verifySecret } from '@commands/support/secrets';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { Ok, ok, refusals } from '../answers';
import { translate } from '../i18n';
import { clearAccountFailures, recordSignInFailure, type SignInLimits, signInBlocked } from './rate-limit';
import { isAdminKind, signedIn } from './session';

/**
 * POST /oauth/token (OAuth 2.0 password grant, answering in OAuth's own shape) and POST /api/logout.
 * The console signs in with a username or an e-mail; `scope=admin` is the admin login of `/admin-login/`, and a
 * seller's credentials do not open it (nor an admin's the seller console).
 */

export interface AuthDeps {
  db: Kysely<Database>;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  signInLimits: SignInLimits;
}

export const TokenRequest = z.object({
  grant_type: z.string().max(64),
  client_id: z.string().max(200),
  client_secret: z.string().max(200),
  username: z.string().max(254),
  password: z.string().max(200),
  scope: z.enum(['admin', '']).optional(),
});

export const TokenAnswer = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
});

export const OAuthError = z.object({
  error: z.enum([
    'invalid_request',
    'invalid_client',
    'invalid_grant',
    'unsupported_grant_type',
    'email_not_verified',
    'too_many_attempts',
  ]),
  error_description: z.string(),
});
type OAuthError = z.infer<typeof OAuthError>;

export const authRoutes: FastifyPluginAsyncZod<AuthDeps> = async (app, deps) => {
  const { db } = deps;

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
      const body = request.body;
      const refuse = (status: 400 | 401 | 429, error: OAuthError['error'], key: string) =>
        reply.code(status).send({ error, error_description: translate(request.language, key) });

      if (body.grant_type !== 'password')
        return refuse(400, 'unsupported_grant_type', 'auth.unsupported_grant');
      if (!sameText(body.client_id, deps.clientId) || !sameText(body.client_secret, deps.clientSecret)) {
        return refuse(401, 'invalid_client', 'auth.invalid_client');
      }
      const account = body.username.trim().toLowerCase();
      const address = request.ip;
      if (await signInBlocked(db, deps.signInLimits, account, address)) {
        return refuse(429, 'too_many_attempts', 'auth.too_many_attempts');
      }

      const user = await db
        .selectFrom('users as u')
        .leftJoin('tenants as n', 'n.id', 'u.tenant_id')
        .select(['u.id', 'u.kind', 'u.status', 'u.password_hash', 'n.status as tenant_status'])
        .where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['u.email']), '=', account),
            eb(eb.fn('lower', ['u.username']), '=', account),
          ]),
        )
        .executeTakeFirst();
      const passwordMatches = await verifySecret(user?.password_hash ?? (await decoyHash()), body.password);
      const rightDoor = user !== undefined && isAdminKind(user.kind) === (body.scope === 'admin');
      if (!user || !passwordMatches || !rightDoor) {
        await recordSignInFailure(db, deps.signInLimits, account, address);
        return refuse(400, 'invalid_grant', 'auth.invalid_credentials');
      }
      if (user.status === 'pending') return refuse(400, 'email_not_verified', 'auth.email_not_verified');
      if (user.status !== 'active' || user.tenant_status === 'suspended') {
        return refuse(400, 'invalid_grant', 'auth.account_inactive');
      }

      await clearAccountFailures(db, account);
      const token = newToken();
      await db
        .insertInto('access_tokens')
        .values({
          token_hash: tokenHash(token),
          user_id: user.id,
          expires_at: new Date(Date.now() + deps.tokenTtlSeconds * 1000),
          address,
        })
        .execute();
      await db.updateTable('users').set({ last_sign_in_at: new Date() }).where('id', '=', user.id).execute();
      return { access_token: token, token_type: 'Bearer' as const, expires_in: deps.tokenTtlSeconds };
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
      const session = signedIn(request);
      await db
        .updateTable('access_tokens')
        .set({ revoked_at: new Date() })
        .where('token_hash', '=', session.tokenHash)
        .execute();
      return ok(request, null, 'auth.signed_out');
    },
  );
};
