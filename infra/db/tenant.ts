import { AsyncLocalStorage } from 'node:async_hooks';
import { Kysely, PostgresDialect, type PostgresPool, sql, type Transaction } from 'kysely';
import type pg from 'pg';
import type { Database } from './schema';

/**
 * Tenancy has two locks. Every query of a tenant's rows filters on `tenant_id` (the first); row-level security on
 * every table holding a tenant's rows (the second, migration 20261127000900_tenancy_roles) hides every other
 * tenant's rows from a query that forgot its filter. The policies key on the session setting `kedai.tenant_id`
 * and bind the app role the API connects as; only the system role (projections, reactors, workflow activities,
 * the lookups made before a tenant is known) has a policy of its own that sees every tenant. No value of the setting
 * widens a session: an app query cannot unlock other tenants, whatever it sets.
 */

/** Whom the current request's queries run for: a tenant (app role), nobody yet (app role, sees no tenant's rows), or
 * the system (a route that is cross-tenant by design: before sign-in, or the provider's admins). */
export interface TenantScope {
  tenantId: string | null;
  system: boolean;
}

const scopes = new AsyncLocalStorage<TenantScope>();

/** Runs `fn` (and everything it starts) in `scope`, which the request's code may fill in as it learns who calls. */
export function runInScope<T>(scope: TenantScope, fn: () => T): T {
  return scopes.run(scope, fn);
}

/** What each pooled app connection has `kedai.tenant_id` set to ('' for none): set again only when it differs. */
const connectionTenant = new WeakMap<pg.PoolClient, string>();

/**
 * The API's pool: a connection of the app role whose `kedai.tenant_id` is the current scope's tenant, set (one round
 * trip) only when the connection last served another tenant, and cleared when the scope has none; a system scope
 * borrows from the system pool instead. A transaction keeps the connection it began with, and `withTenant`'s
 * SET LOCAL still narrows it, ending with the transaction.
 */
function scopedPool(app: pg.Pool, system: pg.Pool): PostgresPool {
  return {
    async connect() {
      const scope = scopes.getStore();
      if (scope?.system) return system.connect();
      const client = await app.connect();
      const tenant = scope?.tenantId ?? '';
      if (connectionTenant.get(client) !== tenant) {
        try {
          await client.query("SELECT set_config('kedai.tenant_id', $1, false)", [tenant]);
        } catch (error) {
          client.release(error instanceof Error ? error : true);
          throw error;
        }
        connectionTenant.set(client, tenant);
      }
      return client;
    },
    // The system pool belongs to whoever made it (the engine and the rest share it).
    end: () => app.end(),
  };
}

/** The API's database: the app role, scoped per request (see scopedPool). */
export function createScopedDb(app: pg.Pool, system: pg.Pool): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: scopedPool(app, system) }) });
}

/** Runs `fn` in a transaction that row-level security confines to `tenantId` (joining one already open). */
export async function withTenant<T>(
  db: Kysely<Database>,
  tenantId: string,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (!tenantId) throw new Error(`"${tenantId}" is not a tenant id`);
  const run = async (trx: Transaction<Database>) => {
    // set_config(…, true) is SET LOCAL that takes a parameter: it ends with the transaction.
    await sql`SELECT set_config('kedai.tenant_id', ${tenantId}, true)`.execute(trx);
    return fn(trx);
  };
  return db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
}
