import type { Config } from '@infra/config';
import { checkReachable, createDb, createPool, type Database, warmPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { createScopedDb } from '@infra/db/tenant';
import { openDatabaseServer } from '@infra/embedded/database';
import { createEventStore, type EventSchemaRegistry, type EventStore } from '@infra/eventstore';
import type { Kysely } from 'kysely';
import type pg from 'pg';

/**
 * The pieces every Kedai process needs: the database (started if embedded), its pools and kysely, the event store.
 * `pool` and `db` run as the system role (cross-tenant: projections, reactors, live hub, workflow activities, the
 * event store); `appDb` is the API's, as the app role bound by row-level security to each request's tenant.
 */
export interface Infrastructure {
  databaseUrl: string;
  /** As the system role: what another process of Kedai's (the Temporal worker) connects with. */
  systemUrl: string;
  pool: pg.Pool;
  db: Kysely<Database>;
  appDb: Kysely<Database>;
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
  const setting = config.database.kind === 'external' ? 'DATABASE_URL' : 'the embedded Postgres';
  const pool = createPool(server.systemUrl, opts.poolSize ?? 10);
  const db = createDb(pool);
  const appPool = createPool(server.appUrl, opts.poolSize ?? 10);
  const appDb = createScopedDb(appPool, pool);
  try {
    // The migrations run as the schema's owner, on a connection of their own; they make the roles the pools use.
    const ownerPool = createPool(server.url, 1);
    try {
      await checkReachable(ownerPool, setting);
      if (opts.migrate) await migrateToLatest(createDb(ownerPool));
    } finally {
      await ownerPool.end();
    }
    await checkReachable(pool, setting);
    // Connections opened now rather than by the first burst of requests (createPool).
    await Promise.all([warmPool(pool), warmPool(appPool)]);
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
      systemUrl: server.systemUrl,
      pool,
      db,
      appDb,
      store,
      async close() {
        await store.close();
        await appDb.destroy();
        await db.destroy();
        await server.stop();
      },
    };
  } catch (error) {
    await appDb.destroy().catch(() => undefined);
    await db.destroy().catch(() => undefined);
    await server.stop().catch(() => undefined);
    throw error;
  }
}
