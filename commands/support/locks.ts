import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';

/**
 * One change at a time per account where a count or a single default is kept. FOR NO KEY UPDATE: rows that merely
 * refer to the tenant (their inserts take KEY SHARE) are not held up.
 */
export async function lockTenant(trx: Kysely<Database>, tenantId: string): Promise<void> {
  await trx
    .selectFrom('tenants')
    .select('id')
    .where('id', '=', tenantId)
    .forNoKeyUpdate()
    .executeTakeFirstOrThrow();
}

/** One writer at a time per account for one kind of change (the category tree), without locking the tenant row. */
export async function lockFor(trx: Kysely<Database>, scope: string, tenantId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`${scope}|${tenantId}`}))`.execute(trx);
}
