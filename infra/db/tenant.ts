import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * The tenant-scoped door to read models. Every query of a read model filters on `tenant_id` (the first lock) and
 * runs inside `withTenant`, which sets `kedai.tenant_id` for its transaction; row-level security on the table
 * (the second lock) then hides every other tenant's rows, even from a query that forgot its filter.
 *
 * The policy binds ordinary roles and, being FORCEd, the tables' owner; it never binds a superuser or a BYPASSRLS
 * role. The embedded server connects as the superuser `postgres`, so there only the filter protects; a deployment
 * on DATABASE_URL gets the second lock by connecting as an ordinary role.
 */

/** The value of `kedai.tenant_id` that lets the projection writer see and write every tenant's rows. */
export const ALL_TENANTS = '*';

async function setTenant(trx: Transaction<Database>, value: string): Promise<void> {
  // set_config(…, true) is SET LOCAL that takes a parameter: it ends with the transaction.
  await sql`SELECT set_config('kedai.tenant_id', ${value}, true)`.execute(trx);
}

/** Runs `fn` in a transaction that row-level security confines to `tenantId` (joining one already open). */
export async function withTenant<T>(
  db: Kysely<Database>,
  tenantId: string,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (!tenantId || tenantId === ALL_TENANTS) throw new Error(`"${tenantId}" is not a tenant id`);
  const run = async (trx: Transaction<Database>) => {
    await setTenant(trx, tenantId);
    return fn(trx);
  };
  return db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
}

/** Lets a projection's batch transaction write the rows of every tenant (the engine calls it for each batch). */
export async function asProjectionWriter(trx: Transaction<Database>): Promise<void> {
  await setTenant(trx, ALL_TENANTS);
}
