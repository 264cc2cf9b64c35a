import type { Config } from '@infra/config';
import { checkReachable, createDb, createPool, type Database } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { openDatabaseServer } from '@infra/embedded/database';
import { createEventStore, type EventSchemaRegistry, type EventStore } from '@infra/eventstore';
import type { Kysely } from 'kysely';
import type pg from 'pg';

/** The pieces every Kedai process needs: the database (started if embedded), its pool and kysely, the event store. */
export interface Infrastructure {
  databaseUrl: string;
  pool: pg.Pool;
  db: Kysely<Database>;
  store: EventStore;
  /** Closes the store and the pool, then stops the embedded database if this process started it. */
  close(): Promise<void>;
}

export async function openInfrastructure(
  config: Config,
  registry: EventSchemaRegistry,
  opts: { migrate?: boolean; poolSize?: number; onDatabaseLog?: (line: string) => void } = {},
): Promise<Infrastructure> {
  const server = await openDatabaseServer(config.database, { onLog: opts.onDatabaseLog });
  const pool = createPool(server.url, opts.poolSize ?? 10);
  const db = createDb(pool);
  try {
    await checkReachable(
      pool,
      config.database.kind === 'external' ? 'DATABASE_URL' : 'the embedded Postgres',
    );
    if (opts.migrate) await migrateToLatest(db);
    const store = await createEventStore(config.eventStore, pool, registry);
    if (config.eventStore.kind === 'eventstoredb') {
      await store.headPosition().catch(async (error: unknown) => {
        await store.close().catch(() => undefined);
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`The event store of EVENTSTORE_URL cannot be reached (${reason}).`);
      });
    }
    return {
      databaseUrl: server.url,
      pool,
      db,
      store,
      async close() {
        await store.close();
        await db.destroy();
        await server.stop();
      },
    };
  } catch (error) {
    await db.destroy().catch(() => undefined);
    await server.stop().catch(() => undefined);
    throw error;
  }
}
