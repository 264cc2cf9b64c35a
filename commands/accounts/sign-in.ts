import { CONSOLE_CLIENT_ID, type OAuthError, type TokenAnswer, type TokenRequest } from '@api/contracts/auth';
import { isAdminKind } from '@domain/access/team';
import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';
import { decoyHash, newToken, sameText, tokenHash, verifySecret } from '../support/secrets';
import {
  clearFailures,
  recordFailure,
  type SignInLimits,
  secondsToWait,
  subjectFailures,
} from './sign-in-limits';
import { sendUnlockLink, type UnlockMail } from './unlock';

/**
 * Signing in with a username or an e-mail (OAuth 2.0 password grant). `scope=admin` is the admin login, and a
 * seller's credentials do not open it (nor an admin's the seller console). A refusal is OAuth's own answer, not a
 * catalogue code, so it comes back as a value for the route to send.
 *
 * Guessing (sign-in-limits.ts): the login is resolved to its account first, so the e-mail and the username share
 * one counter (an unknown login counts on its text, answered alike). Failures of the account from this address
 * delay this address only. Past the account's ceiling (a guess spread over many addresses) an address the account
 * never signed in from needs an e-mailed unlock link: whatever the password, it hears "check your e-mail" (so the
 * answer tells a guesser nothing), and the link goes out only when the password was right. An address the owner
 * signed in from before still signs in with the right password.
 */

export interface SignInDeps {
  db: Kysely<Database>;
  clientId: string;
  clientSecret: string;
  tokenTtlSeconds: number;
  signInLimits: SignInLimits;
  /** Mails an unlock link, in the caller's language. */
  mailUnlock: UnlockMail;
}

export type SignInRefusal = {
  status: 400 | 401 | 403 | 429;
  error: OAuthError['error'];
  key: string;
  /** Seconds before this address may try again (a 429's Retry-After). */
  retryAfter?: number;
};
export type SignInResult = { token: TokenAnswer } | { refused: SignInRefusal };

const refuse = (
  status: SignInRefusal['status'],
  error: SignInRefusal['error'],
  key: string,
  retryAfter?: number,
): SignInResult => ({ refused: { status, error, key, ...(retryAfter ? { retryAfter } : {}) } });

export async function signIn(deps: SignInDeps, visitor: Visitor, body: TokenRequest): Promise<SignInResult> {
  if (body.grant_type !== 'password') return refuse(400, 'unsupported_grant_type', 'auth.unsupported_grant');
  if (!knownClient(deps, body)) return refuse(401, 'invalid_client', 'auth.invalid_client');
  const login = body.username.trim().toLowerCase();
  const user = await deps.db
    .selectFrom('users as u')
    .leftJoin('tenants as n', 'n.id', 'u.tenant_id')
    .select([
      'u.id',
      'u.tenant_id',
      'u.kind',
      'u.status',
      'u.email',
      'u.first_name',
      'u.password_hash',
      'n.status as tenant_status',
    ])
    .where((eb) =>
      eb.or([eb(eb.fn('lower', ['u.email']), '=', login), eb(eb.fn('lower', ['u.username']), '=', login)]),
    )
    .executeTakeFirst();
  const subject = user ? `user:${user.id}` : `login:${login}`;
  const { address } = visitor;

  // One attempt of a pair at a time, so parallel guesses cannot all pass the wait before any failure is counted.
  const outcome = await deps.db.transaction().execute(async (trx) => {
    const locked = await sql<{ locked: boolean }>`
      SELECT pg_try_advisory_xact_lock(hashtext(${`sign-in:${subject}:${address}`})) AS locked`.execute(trx);
    if (!locked.rows[0]?.locked) return refuse(429, 'too_many_attempts', 'auth.too_many_attempts', 1);
    const wait = await secondsToWait(trx, deps.signInLimits, subject, address);
    if (wait > 0) return refuse(429, 'too_many_attempts', 'auth.too_many_attempts', wait);

    const passwordMatches = await verifySecret(user?.password_hash ?? (await decoyHash()), body.password);
    const right =
      user !== undefined && passwordMatches && isAdminKind(user.kind) === (body.scope === 'admin');
    const ceilingReached =
      (await subjectFailures(trx, deps.signInLimits, subject)) >= deps.signInLimits.accountCeiling &&
      !(user && (await knownAddress(trx, deps.signInLimits, user.id, address)));
    if (!right) await recordFailure(trx, deps.signInLimits, subject, address);
    if (ceilingReached) return { unlock: right };
    if (!right) return refuse(400, 'invalid_grant', 'auth.invalid_credentials');
    return { signIn: true as const };
  });

  const log = (result: SignInLogResult) => user && logSignIn(deps.db, user, login, visitor, result);
  if ('refused' in outcome) {
    await log(outcome.refused.status === 429 ? 'locked' : 'failure');
    return outcome;
  }
  if ('unlock' in outcome) {
    if (outcome.unlock && user) await sendUnlockLink(deps, user, isAdminKind(user.kind));
    await log('locked');
    return refuse(403, 'unlock_required', 'auth.unlock_required');
  }
  // Only a right password reaches here.
  const account = user!;
  if (account.status !== 'active' || account.tenant_status === 'suspended') {
    await log('failure');
    if (account.status === 'pending') return refuse(400, 'email_not_verified', 'auth.email_not_verified');
    return refuse(400, 'invalid_grant', 'auth.account_inactive');
  }

  const now = deps.signInLimits.now();
  await clearFailures(deps.db, subject, address);
  await deps.db
    .insertInto('sign_in_addresses')
    .values({ user_id: account.id, address, last_sign_in_at: now })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_sign_in_at: now }))
    .execute();
  const token = newToken();
  await deps.db
    .insertInto('access_tokens')
    .values({
      token_hash: tokenHash(token),
      user_id: account.id,
      expires_at: new Date(Date.now() + deps.tokenTtlSeconds * 1000),
      address,
    })
    .execute();
  await deps.db
    .updateTable('users')
    .set({ last_sign_in_at: new Date() })
    .where('id', '=', account.id)
    .execute();
  await log('success');
  return { token: { access_token: token, token_type: 'Bearer', expires_in: deps.tokenTtlSeconds } };
}

export interface Visitor {
  address: string;
  /** The browser or app that asked (the User-Agent header). */
  userAgent?: string;
}

type SignInLogResult = 'success' | 'failure' | 'locked';

/** The account's sign-in list (`/login_access/list`) keeps each attempt on a known account, whatever its outcome. */
async function logSignIn(
  db: Kysely<Database>,
  user: { id: string; tenant_id: string | null },
  login: string,
  visitor: Visitor,
  result: SignInLogResult,
): Promise<void> {
  await db
    .insertInto('sign_in_log')
    .values({
      tenant_id: user.tenant_id,
      user_id: user.id,
      login: login.slice(0, 254),
      address: visitor.address,
      user_agent: (visitor.userAgent ?? '').slice(0, 500),
      result,
    })
    .execute();
}

/** The account signed in from this address before, or an unlock link opened here lets it in for a while. */
async function knownAddress(db: Kysely<Database>, limits: SignInLimits, userId: string, address: string) {
  const row = await db
    .selectFrom('sign_in_addresses')
    .select('user_id')
    .where('user_id', '=', userId)
    .where('address', '=', address)
    .where((eb) => eb.or([eb('last_sign_in_at', 'is not', null), eb('unlocked_until', '>', limits.now())]))
    .executeTakeFirst();
  return row !== undefined;
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
