import type { Config } from '@infra/config';
import type pg from 'pg';
import type { EventStore } from './port';
import { PostgresEventStore } from './postgres';
import type { EventSchemaRegistry } from './registry';

export * from './errors';
export * from './port';
export { EventSchemaRegistry } from './registry';

/** The configured adapter: Postgres (on the same pool as the read models) unless EVENTSTORE_URL names EventStoreDB. */
export async function createEventStore(
  settings: Config['eventStore'],
  pool: pg.Pool,
  registry: EventSchemaRegistry,
): Promise<EventStore> {
  if (settings.kind === 'postgres') return new PostgresEventStore(pool, registry);
  const { EventStoreDbEventStore } = await import('./esdb');
  return EventStoreDbEventStore.fromConnectionString(settings.url, registry);
}
