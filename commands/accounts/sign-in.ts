import { CONSOLE_CLIENT_ID, type OAuthError, type TokenAnswer, type TokenRequest } from '@api/contracts/auth';
import { isAdminKind } from '@domain/access/team';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { decoyHash, newToken, sameText, tokenHash, verifySecret } from '../support/secrets';
import {
  clearAccountFailures,
  recordSignInFailure,
  type SignInLimits,
  signInBlocked,
} from './sign-in-limits';

/**
 * Signing in with a username or an e-mail (OAuth 2.0 password grant). `scope=admin` is the admin login, and a
 * seller's credentials do not open it (nor an admin's the seller console). Failures count per account and address.
 * A refusal is OAuth's own answer, not a catalogue code, so it comes back as a value for the route to send.
 */

export interface SignInDeps {
  db: Kysely<Database>;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  signInLimits: SignInLimits;
}

export type SignInRefusal = { status: 400 | 401 | 429; error: OAuthError['error']; key: string };
export type SignInResult = { token: TokenAnswer } | { refused: SignInRefusal };

export async function signIn(
  deps: SignInDeps,
  visitor: { address: string },
  body: TokenRequest,
): Promise<SignInResult> {
  const { db } = deps;
  const refuse = (
    status: SignInRefusal['status'],
    error: SignInRefusal['error'],
    key: string,
  ): SignInResult => ({
    refused: { status, error, key },
  });
  if (body.grant_type !== 'password') return refuse(400, 'unsupported_grant_type', 'auth.unsupported_grant');
  if (!knownClient(deps, body)) return refuse(401, 'invalid_client', 'auth.invalid_client');
  const account = body.username.trim().toLowerCase();
  const { address } = visitor;
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
  return { token: { access_token: token, token_type: 'Bearer', expires_in: deps.tokenTtlSeconds } };
}

/** The console, a public client, by its id alone; the configured confidential client only with its secret. */
const knownClient = (deps: SignInDeps, body: TokenRequest) =>
  sameText(body.client_id, CONSOLE_CLIENT_ID) ||
  (sameText(body.client_id, deps.clientId) && sameText(body.client_secret ?? '', deps.clientSecret));

/** The bearer token revoked. */
export async function signOut(
  { db }: { db: Kysely<Database> },
  session: { tokenHash: string },
): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: new Date() })
    .where('token_hash', '=', session.tokenHash)
    .execute();
}
