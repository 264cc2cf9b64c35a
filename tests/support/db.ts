import { randomBytes } from 'node:crypto';
import { createDb, createPool, type Database } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { inject } from 'vitest';

export interface TestDatabase {
  url: string;
  pool: pg.Pool;
  db: Kysely<Database>;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** A fresh database on the run's embedded Postgres, migrated to the latest schema unless told otherwise. */
export async function createTestDatabase(
  opts: { migrate?: boolean; poolSize?: number } = {},
): Promise<TestDatabase> {
  const serverUrl = inject('postgresUrl');
  const name = `kedai_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = serverUrl.replace(/\/[^/]*$/, `/${name}`);
  const pool = createPool(url, opts.poolSize ?? 10);
  const db = createDb(pool);
  if (opts.migrate !== false) await migrateToLatest(db);
  return {
    url,
    pool,
    db,
    async drop() {
      await db.destroy();
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
