import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';

/**
 * Sign-in failures, counted per account and per address over a sliding window in Postgres, so every API process
 * sees the same count. A success clears the account's failures; old rows are pruned as new ones arrive.
 */
export interface SignInLimits {
  windowMinutes: number;
  perAccount: number;
  perAddress: number;
}

export const defaultSignInLimits: SignInLimits = { windowMinutes: 15, perAccount: 5, perAddress: 30 };

export async function signInBlocked(
  db: Kysely<Database>,
  limits: SignInLimits,
  account: string,
  address: string,
): Promise<boolean> {
  const since = sql<Date>`now() - make_interval(mins => ${limits.windowMinutes})`;
  const counts = await db
    .selectFrom('sign_in_failures')
    .select([
      sql<string>`count(*) FILTER (WHERE scope = 'account' AND key = ${account})`.as('account'),
      sql<string>`count(*) FILTER (WHERE scope = 'address' AND key = ${address})`.as('address'),
    ])
    .where('at', '>', since)
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'account'), eb('key', '=', account)]),
        eb.and([eb('scope', '=', 'address'), eb('key', '=', address)]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(counts.account) >= limits.perAccount || Number(counts.address) >= limits.perAddress;
}

export async function recordSignInFailure(
  db: Kysely<Database>,
  limits: SignInLimits,
  account: string,
  address: string,
): Promise<void> {
  await db
    .insertInto('sign_in_failures')
    .values([
      { scope: 'account', key: account },
      { scope: 'address', key: address },
    ])
    .execute();
  await db
    .deleteFrom('sign_in_failures')
    .where('at', '<', sql<Date>`now() - make_interval(mins => ${limits.windowMinutes * 2})`)
    .execute();
}

export async function clearAccountFailures(db: Kysely<Database>, account: string): Promise<void> {
  await db.deleteFrom('sign_in_failures').where('scope', '=', 'account').where('key', '=', account).execute();
}
