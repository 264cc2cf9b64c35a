import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';

export type * from './schema';

/** The database as routes and queries are handed it. */
export type Db = Kysely<Database>;

/** One pool per process; kysely and the Postgres event store adapter share it. */
/**
 * A pool of up to `max` connections that keeps the ones it opens (`min`, all of them by default, as HikariCP's
 * minimumIdle does): a connection opened during a burst costs a forked backend, a SCRAM exchange and a backend's cold
 * catalogue caches, which at 500 commands a second put the first second's p99 at 150-250 ms where the seconds after it
 * stay under 60 ms. `warmPool` opens them before the first request needs them.
 */
export function createPool(url: string, max = 10, min = max): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, min, application_name: 'kedai' });
  // An idle client's error (server restart) must not crash the process; the next checkout reconnects.
  pool.on('error', () => undefined);
  return pool;
}

/** Opens `count` of the pool's connections at once (its `min` by default) and gives them back to it. */
export async function warmPool(pool: pg.Pool, count = pool.options.min ?? 0): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
  const failed = opened.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
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
