import { FORGOT_COOLDOWN_SECONDS, RESET_LINK_TTL_SECONDS, refuseAccount } from '@domain/access/accounts';
import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';
import { hashSecret, newToken, tokenHash } from '../support/secrets';

/**
 * Forgotten password and forgotten POS app PIN (spec §2 public routes /reset-password and /reset-pos-app-pin): the
 * user asks with an e-mail, gets a single-use link valid for an hour (its token kept as a SHA-256 hash), and sets a
 * new secret through it. Asking answers the same whatever the e-mail, and mails at most once a minute per account.
 * A new password signs the user out everywhere.
 */

export type ResetPurpose = 'password' | 'pos_pin';

/** Who may reset what, and what the activity log calls it. */
const flows = {
  password: { action: 'password_reset', kinds: ['owner', 'subuser', 'admin', 'subadmin'] },
  // The POS app belongs to seller accounts.
  pos_pin: { action: 'pos_pin_reset', kinds: ['owner', 'subuser'] },
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
    await trx
      .deleteFrom('reset_links')
      .where('user_id', '=', user.id)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
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

/**
 * Marks the link used and returns its user, in the caller's transaction; refuses an unknown, replaced, used or
 * expired link with its own message. The user must still be active.
 */
async function useLink(trx: Kysely<Database>, purpose: ResetPurpose, token: string) {
  const hash = tokenHash(token);
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
  if (used) {
    return trx
      .selectFrom('users')
      .select(['id', 'tenant_id', 'email', 'username'])
      .where('id', '=', used.user_id)
      .executeTakeFirstOrThrow();
  }
  const link = await trx
    .selectFrom('reset_links')
    .select(['used_at', sql<boolean>`expires_at <= now()`.as('expired')])
    .where('token_hash', '=', hash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  if (link?.used_at) throw refuseAccount('LINK_USED');
  if (link?.expired) throw refuseAccount('LINK_EXPIRED');
  throw refuseAccount('LINK_INVALID');
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

/** A new password through a reset link; signs the user out everywhere. */
export async function resetPassword(
  { db }: Pick<RecoveryDeps, 'db'>,
  input: { token: string; password: string },
): Promise<void> {
  const passwordHash = await hashSecret(input.password);
  await db.transaction().execute(async (trx) => {
    const user = await useLink(trx, 'password', input.token);
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: sql<Date>`now()` })
      .where('id', '=', user.id)
      .execute();
    await trx
      .updateTable('access_tokens')
      .set({ revoked_at: sql<Date>`now()` })
      .where('user_id', '=', user.id)
      .where('revoked_at', 'is', null)
      .execute();
    // Other links of the same user die with this one; a locked-out account may sign in again at once.
    await trx
      .deleteFrom('reset_links')
      .where('user_id', '=', user.id)
      .where('purpose', '=', 'password')
      .where('used_at', 'is', null)
      .execute();
    await trx
      .deleteFrom('sign_in_failures')
      .where('scope', '=', 'account')
      .where(
        'key',
        'in',
        [user.email, user.username ?? user.email].map((login) => login.toLowerCase()),
      )
      .execute();
    await logReset(trx, 'password', user);
  });
}

/** A new 6-digit POS app PIN through a reset link. */
export async function resetPosPin(
  { db }: Pick<RecoveryDeps, 'db'>,
  input: { token: string; pin: string },
): Promise<void> {
  const pinHash = await hashSecret(input.pin);
  await db.transaction().execute(async (trx) => {
    const user = await useLink(trx, 'pos_pin', input.token);
    await trx
      .updateTable('users')
      .set({ pos_pin_hash: pinHash, updated_at: sql<Date>`now()` })
      .where('id', '=', user.id)
      .execute();
    await trx
      .deleteFrom('reset_links')
      .where('user_id', '=', user.id)
      .where('purpose', '=', 'pos_pin')
      .where('used_at', 'is', null)
      .execute();
    await logReset(trx, 'pos_pin', user);
  });
}
