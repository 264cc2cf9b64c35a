import { FORGOT_COOLDOWN_SECONDS, RESET_LINK_TTL_SECONDS, refuseAccount } from '@domain/access/accounts';
import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';
import { newToken, tokenHash } from '../support/secrets';
import { recordFailure, refuseWhileWaiting, type SignInLimits, unlockAddress } from './sign-in-limits';

/**
 * Forgotten password and forgotten POS app PIN (spec §2 public routes /reset-password and /reset-pos-app-pin): the
 * user asks with an e-mail, gets a single-use link valid for an hour (its token kept as a SHA-256 hash), and sets a
 * new secret through it. Asking answers the same whatever the e-mail, and mails at most once a minute per account.
 * A new password signs the user out everywhere. Setting the secret is rate-limited per address and per link.
 */

export type ResetPurpose = 'password' | 'pos_pin';

/** Who may reset what, and what the activity log calls it. */
const flows = {
  password: {
    action: 'password_reset',
    kinds: ['owner', 'subuser', 'admin', 'subadmin'],
    column: 'password_hash',
  },
  // The POS app belongs to seller accounts.
  pos_pin: { action: 'pos_pin_reset', kinds: ['owner', 'subuser'], column: 'pos_pin_hash' },
} as const satisfies Record<ResetPurpose, unknown>;

export interface RecoveryDeps {
  db: Kysely<Database>;
  /** Mails the link carrying `token` to the user, in the caller's language. */
  mailLink(purpose: ResetPurpose, to: { email: string; name: string }, token: string): Promise<void>;
}

/** Mails a reset link when the e-mail is an active account that may use this flow, at most once a minute. */
export async function sendResetLink(
  deps: RecoveryDeps,
  input: { purpose: ResetPurpose; email: string },
): Promise<void> {
  const { db } = deps;
  const { purpose, email } = input;
  const user = await db
    .selectFrom('users as u')
    .leftJoin('tenants as n', 'n.id', 'u.tenant_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.kind', 'u.status', 'n.status as tenant_status'])
    .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email))
    .executeTakeFirst();
  if (user?.status !== 'active' || user.tenant_status === 'suspended') return;
  if (!(flows[purpose].kinds as readonly string[]).includes(user.kind)) return;

  const token = newToken();
  const issued = await db.transaction().execute(async (trx) => {
    // One request at a time per account, so the once-a-minute rule holds under parallel requests.
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`reset:${purpose}:${user.id}`}))`.execute(trx);
    const recent = await trx
      .selectFrom('reset_links')
      .select('token_hash')
      .where('user_id', '=', user.id)
      .where('purpose', '=', purpose)
      .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${FORGOT_COOLDOWN_SECONDS})`)
      .executeTakeFirst();
    if (recent) return false;
    // A new link replaces the ones not used yet.
    await dropUnusedLinks(trx, user.id, purpose);
    await trx
      .insertInto('reset_links')
      .values({
        token_hash: tokenHash(token),
        user_id: user.id,
        purpose,
        expires_at: sql<Date>`now() + make_interval(secs => ${RESET_LINK_TTL_SECONDS})`,
      })
      .execute();
    return true;
  });
  if (issued) await deps.mailLink(purpose, { email: user.email, name: user.first_name }, token);
}

/** Refuses an unknown, replaced, used or expired link, or one whose user is no longer active, with its own message. */
async function checkLink(db: Kysely<Database>, purpose: ResetPurpose, hash: string): Promise<void> {
  const link = await db
    .selectFrom('reset_links as l')
    .innerJoin('users as u', 'u.id', 'l.user_id')
    .select(['l.used_at', 'u.status', sql<boolean>`l.expires_at <= now()`.as('expired')])
    .where('l.token_hash', '=', hash)
    .where('l.purpose', '=', purpose)
    .executeTakeFirst();
  if (link?.used_at) throw refuseAccount('LINK_USED');
  if (link?.expired) throw refuseAccount('LINK_EXPIRED');
  if (link?.status !== 'active') throw refuseAccount('LINK_INVALID');
}

/** Marks the link used and returns its user, in the caller's transaction; a link used meanwhile is refused. */
async function useLink(trx: Kysely<Database>, purpose: ResetPurpose, hash: string) {
  const used = await trx
    .updateTable('reset_links')
    .set({ used_at: sql<Date>`now()` })
    .where('token_hash', '=', hash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', sql<Date>`now()`)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('users')
          .select('users.id')
          .whereRef('users.id', '=', 'reset_links.user_id')
          .where('users.status', '=', 'active'),
      ),
    )
    .returning('user_id')
    .executeTakeFirst();
  if (!used) {
    await checkLink(trx, purpose, hash);
    throw refuseAccount('LINK_INVALID');
  }
  return trx
    .selectFrom('users')
    .select(['id', 'tenant_id'])
    .where('id', '=', used.user_id)
    .executeTakeFirstOrThrow();
}

export interface ResetDeps {
  db: Kysely<Database>;
  signInLimits: SignInLimits;
  /** Hashes the new secret (argon2id). A seam where a test counts that a bad link costs no hashing. */
  hashSecret: (secret: string) => Promise<string>;
}

/**
 * The rate limit and the order of work every reset follows: an address (and a link) with too many bad links waits;
 * the link is looked up before the new secret is hashed, so a bad link costs a lookup, not an argon2 hash; then the
 * link is used, the secret set and `after` run, in one transaction.
 */
async function resetThrough(
  deps: ResetDeps,
  visitor: { address: string },
  purpose: ResetPurpose,
  input: { token: string; secret: string },
  after?: (trx: Kysely<Database>, user: { id: string }) => Promise<void>,
): Promise<void> {
  const { db, signInLimits } = deps;
  const hash = tokenHash(input.token);
  const byAddress = [`reset:${purpose}`, visitor.address] as const;
  const byLink = [`reset-link:${hash}`, ''] as const;
  await refuseWhileWaiting(db, signInLimits, ...byAddress);
  await refuseWhileWaiting(db, signInLimits, ...byLink);
  try {
    await checkLink(db, purpose, hash);
  } catch (error) {
    await recordFailure(db, signInLimits, ...byAddress);
    await recordFailure(db, signInLimits, ...byLink);
    throw error;
  }
  const secretHash = await deps.hashSecret(input.secret);
  await db.transaction().execute(async (trx) => {
    const user = await useLink(trx, purpose, hash);
    await trx
      .updateTable('users')
      .set({ [flows[purpose].column]: secretHash, updated_at: sql<Date>`now()` })
      .where('id', '=', user.id)
      .execute();
    await after?.(trx, user);
    // Other links of the same user and purpose die with this one.
    await dropUnusedLinks(trx, user.id, purpose);
    await logReset(trx, purpose, user);
  });
}

async function dropUnusedLinks(trx: Kysely<Database>, userId: string, purpose: ResetPurpose) {
  await trx
    .deleteFrom('reset_links')
    .where('user_id', '=', userId)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .execute();
}

async function logReset(
  trx: Kysely<Database>,
  purpose: ResetPurpose,
  user: { id: string; tenant_id: string | null },
) {
  await trx
    .insertInto('activity_log')
    .values({
      tenant_id: user.tenant_id,
      user_id: user.id,
      action: flows[purpose].action,
      subject_type: 'user',
      subject_id: user.id,
      detail: '{}',
    })
    .execute();
}

/**
 * A new password through a reset link; signs the user out everywhere. The link proved the mailbox, so the address
 * that used it may sign in past the account's ceiling for a while, as with an unlock link.
 */
export async function resetPassword(
  deps: ResetDeps,
  visitor: { address: string },
  input: { token: string; password: string },
): Promise<void> {
  await resetThrough(
    deps,
    visitor,
    'password',
    { token: input.token, secret: input.password },
    async (trx, user) => {
      await trx
        .updateTable('access_tokens')
        .set({ revoked_at: sql<Date>`now()` })
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .execute();
      await unlockAddress(trx, deps.signInLimits, user.id, visitor.address);
    },
  );
}

/** A new 6-digit POS app PIN through a reset link. */
export async function resetPosPin(
  deps: ResetDeps,
  visitor: { address: string },
  input: { token: string; pin: string },
): Promise<void> {
  await resetThrough(deps, visitor, 'pos_pin', { token: input.token, secret: input.pin });
}
