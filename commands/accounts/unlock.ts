import { FORGOT_COOLDOWN_SECONDS, refuseAccount } from '@domain/access/accounts';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { newToken, tokenHash } from '../support/secrets';
import { recordFailure, refuseWhileWaiting, type SignInLimits, unlockAddress } from './sign-in-limits';

/**
 * The e-mailed unlock link of an account past its sign-in ceiling (sign-in.ts). The link opens the console's login
 * with the token; the page posts it from the browser that will sign in, and that browser's address may then sign in
 * past the ceiling for `unlockMinutes` (an address, not the whole account, so a guesser elsewhere stays behind the
 * ceiling while the owner gets in). Single use, kept as a SHA-256 hash, at most one mail a minute per account.
 */

/** Mails the unlock link carrying `token` to the user; `admin` picks the admin login the link opens. */
export type UnlockMail = (
  to: { email: string; name: string },
  token: string,
  admin: boolean,
) => Promise<void>;

export async function sendUnlockLink(
  deps: { db: Kysely<Database>; signInLimits: SignInLimits; mailUnlock: UnlockMail },
  user: { id: string; email: string; first_name: string },
  admin: boolean,
): Promise<void> {
  const now = deps.signInLimits.now();
  const recent = await deps.db
    .selectFrom('sign_in_unlocks')
    .select('token_hash')
    .where('user_id', '=', user.id)
    .where('created_at', '>', new Date(now.getTime() - FORGOT_COOLDOWN_SECONDS * 1000))
    .executeTakeFirst();
  if (recent) return;
  const token = newToken();
  await deps.db
    .insertInto('sign_in_unlocks')
    .values({
      token_hash: tokenHash(token),
      user_id: user.id,
      created_at: now,
      expires_at: new Date(now.getTime() + deps.signInLimits.unlockMinutes * 60_000),
    })
    .execute();
  await deps.mailUnlock({ email: user.email, name: user.first_name }, token, admin);
}

/** Unlocks sign-in past the ceiling for the address that opens the link; bad links count against that address. */
export async function unlockSignIn(
  deps: { db: Kysely<Database>; signInLimits: SignInLimits },
  visitor: { address: string },
  input: { token: string },
): Promise<void> {
  const { db, signInLimits } = deps;
  await refuseWhileWaiting(db, signInLimits, 'unlock', visitor.address);
  const now = signInLimits.now();
  const link = await db
    .updateTable('sign_in_unlocks')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash(input.token))
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  if (!link) {
    await recordFailure(db, signInLimits, 'unlock', visitor.address);
    const known = await db
      .selectFrom('sign_in_unlocks')
      .select('used_at')
      .where('token_hash', '=', tokenHash(input.token))
      .executeTakeFirst();
    if (known?.used_at) throw refuseAccount('LINK_USED');
    throw refuseAccount(known ? 'LINK_EXPIRED' : 'LINK_INVALID');
  }
  await unlockAddress(db, signInLimits, link.user_id, visitor.address);
}
