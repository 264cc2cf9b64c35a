import { randomBytes } from 'node:crypto';
import { createDb, createPool, type Database } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { createScopedDb } from '@infra/db/tenant';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  /** As the superuser, the schema's owner (what a child process is given as DATABASE_URL). */
  url: string;
  /** As the superuser: fixtures and the odd schema change a test makes. */
  pool: pg.Pool;
  db: Kysely<Database>;
  /** As the system role: what the projection engine, reactors, live hub, workflow activities and mailer use. */
  systemPool: pg.Pool;
  systemDb: Kysely<Database>;
  /** As the app role, scoped per request as the API's (infra/db/tenant.ts). */
  appDb: Kysely<Database>;
  /** Closes the pools and drops the database. */
  drop(): Promise<void>;
}

const inDatabase = (url: string, name: string) => url.replace(/\/[^/]*$/, `/${name}`);

/** A fresh database on the run's embedded Postgres, migrated to the latest schema unless told otherwise. */
export async function createTestDatabase(
  opts: { migrate?: boolean; poolSize?: number } = {},
): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const roles = inject('postgresRoleUrls');
  const name = `kedai_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = inDatabase(serverUrl, name);
  const pool = createPool(url, opts.poolSize ?? 10);
  const db = createDb(pool);
  const systemPool = createPool(inDatabase(roles.system, name), opts.poolSize ?? 10);
  const systemDb = createDb(systemPool);
  const appDb = createScopedDb(createPool(inDatabase(roles.app, name), opts.poolSize ?? 10), systemPool);
  if (opts.migrate !== false) await migrateToLatest(db);
  return {
    url,
    pool,
    db,
    systemPool,
    systemDb,
    appDb,
    async drop() {
      await appDb.destroy();
      await systemDb.destroy();
      await db.destroy();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
