import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type * from './schema';

/** The database as routes and queries are handed it. */
export type Db = Kysely<Database>;

/** One pool per process; kysely and the Postgres event store adapter share it. */
export function createPool(url: string, max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, application_name: 'kedai' });
  // An idle client's error (server restart) must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** A client of its own on the pool's server, outside the pool: LISTEN needs a connection nobody else borrows. */
export function dedicatedClient(pool: pg.Pool): pg.Client {
  const { connectionString, host, port, user, password, database } = pool.options;
  return new pg.Client({
    connectionString,
    host,
    port,
    user,
    password,
    database,
    application_name: 'kedai-listen',
  });
}

export function createDb(pool: pg.Pool): Kysely<Database> {
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Reaches the server once, turning a refusal into one sentence that names the setting. */
export async function checkReachable(pool: pg.Pool, setting: string): Promise<void> {
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The database of ${setting} cannot be reached (${reason}).`);
  }
}
