import { refuseAccount } from '@domain/access/accounts';
import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';

/**
 * Guessing throttled without locking owners out. Failures count per subject (an account, an unknown login's text, a
 * reset flow) AND client address together: after `freeFailures` failures of a pair, each further attempt of that
 * pair waits 2, 4, 8… seconds (up to `maxDelaySeconds`), so a guesser at one address never delays the owner at
 * another. The sum over every address is the account's ceiling against a guess spread over many addresses (see
 * sign-in.ts). Counts live in Postgres so every API process sees them; a pair forgets its failures after a window
 * without any. Every moment comes from `now`, so tests move a clock instead of waiting.
 */
export interface SignInLimits {
  /** Failures of one subject from one address before each further attempt must wait. */
  freeFailures: number;
  maxDelaySeconds: number;
  /** A pair's failures are forgotten after this long without one; the ceiling counts within it. */
  windowMinutes: number;
  /** Failures of one account from all addresses after which an address it has not signed in from needs an unlock link. */
  accountCeiling: number;
  /** How long an unlock link lives, and how long an address it unlocked may sign in past the ceiling. */
  unlockMinutes: number;
  now: () => Date;
}

export const defaultSignInLimits: SignInLimits = {
  freeFailures: 3,
  maxDelaySeconds: 15 * 60,
  windowMinutes: 60,
  accountCeiling: 20,
  unlockMinutes: 15,
  now: () => new Date(),
};

const later = (from: Date, seconds: number) => new Date(from.getTime() + seconds * 1000);

/** The wait after `failures` failures of a pair: none up to the free ones, then doubling, capped. */
export function delaySeconds(limits: SignInLimits, failures: number): number {
  if (failures < limits.freeFailures) return 0;
  return Math.min(2 ** (failures - limits.freeFailures + 1), limits.maxDelaySeconds);
}

/** Whole seconds the pair must still wait before its next attempt (0: it may go now). */
export async function secondsToWait(
  db: Kysely<Database>,
  limits: SignInLimits,
  subject: string,
  address: string,
): Promise<number> {
  const row = await db
    .selectFrom('sign_in_throttle')
    .select('blocked_until')
    .where('subject', '=', subject)
    .where('address', '=', address)
    .executeTakeFirst();
  const waitMs = row ? row.blocked_until.getTime() - limits.now().getTime() : 0;
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/** Counts a failure of the pair (restarting the count after a quiet window) and sets when it may try again. */
export async function recordFailure(
  db: Kysely<Database>,
  limits: SignInLimits,
  subject: string,
  address: string,
): Promise<void> {
  const now = limits.now();
  const windowStart = later(now, -limits.windowMinutes * 60);
  const counted = await db
    .insertInto('sign_in_throttle')
    .values({ subject, address, failures: 1, last_failure_at: now, blocked_until: now })
    .onConflict((oc) =>
      oc.columns(['subject', 'address']).doUpdateSet({
        failures: sql<number>`CASE WHEN sign_in_throttle.last_failure_at < ${windowStart} THEN 1
          ELSE sign_in_throttle.failures + 1 END`,
        last_failure_at: now,
      }),
    )
    .returning('failures')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('sign_in_throttle')
    .set({ blocked_until: later(now, delaySeconds(limits, counted.failures)) })
    .where('subject', '=', subject)
    .where('address', '=', address)
    .execute();
  // Pairs quiet for two windows are forgotten anyway; pruning here keeps the table to the active ones.
  await db
    .deleteFrom('sign_in_throttle')
    .where('last_failure_at', '<', later(now, -2 * limits.windowMinutes * 60))
    .execute();
}

/** Failures of the subject from every address within the window: what the account's ceiling compares. */
export async function subjectFailures(
  db: Kysely<Database>,
  limits: SignInLimits,
  subject: string,
): Promise<number> {
  const row = await db
    .selectFrom('sign_in_throttle')
    .select(sql<string>`coalesce(sum(failures), 0)`.as('n'))
    .where('subject', '=', subject)
    .where('last_failure_at', '>', later(limits.now(), -limits.windowMinutes * 60))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A success forgets the pair's failures (not the other addresses'). */
export async function clearFailures(db: Kysely<Database>, subject: string, address: string): Promise<void> {
  await db
    .deleteFrom('sign_in_throttle')
    .where('subject', '=', subject)
    .where('address', '=', address)
    .execute();
}

/**
 * Lets `address` sign in to the user's account past the ceiling for `unlockMinutes`: it proved it holds the
 * account's mailbox (an unlock link or a reset link opened from there).
 */
export async function unlockAddress(
  db: Kysely<Database>,
  limits: SignInLimits,
  userId: string,
  address: string,
): Promise<void> {
  const until = later(limits.now(), limits.unlockMinutes * 60);
  await db
    .insertInto('sign_in_addresses')
    .values({ user_id: userId, address, unlocked_until: until })
    .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ unlocked_until: until }))
    .execute();
}

/** Refuses the pair while it must wait, naming the seconds (the reset and unlock links' throttle). */
export async function refuseWhileWaiting(
  db: Kysely<Database>,
  limits: SignInLimits,
  subject: string,
  address: string,
): Promise<void> {
  const seconds = await secondsToWait(db, limits, subject, address);
  if (seconds > 0) throw refuseAccount('TOO_MANY_ATTEMPTS', { count: seconds });
}
