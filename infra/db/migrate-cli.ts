import { config } from '@infra/config';
import { checkReachable, createDb, createPool } from '@infra/db';
import { migrateDown, migrateToLatest, migrationStatus } from '@infra/db/migrator';
import { openDatabaseServer } from '@infra/embedded/database';
import type { Kysely, MigrationResultSet } from 'kysely';

const USAGE = `Usage:
  npm run migrate                 apply every pending migration
  npm run migrate -- down         revert the newest applied migration
  npm run migrate -- status       list the migrations, applied or pending`;

/**
 * `npm run migrate`: the schema of the configured database (DATABASE_URL, or the embedded Postgres in DATA_DIR,
 * started for the occasion unless `npm start` already runs it).
 */
async function main(command = 'latest'): Promise<number> {
  if (command === '--help' || command === '-h') {
    console.log(USAGE);
    return 0;
  }
  if (!['latest', 'down', 'status'].includes(command)) {
    console.error(`Unknown command "${command}".\n${USAGE}`);
    return 1;
  }
  const settings = config().database;
  const server = await openDatabaseServer(settings);
  const pool = createPool(server.url, 2);
  const db = createDb(pool);
  try {
    await checkReachable(pool, settings.kind === 'external' ? 'DATABASE_URL' : 'the embedded Postgres');
    if (command === 'status') await printStatus(db);
    else report(command === 'down' ? await migrateDown(db) : await migrateToLatest(db), command);
    return 0;
  } finally {
    await db.destroy();
    await server.stop();
  }
}

function report(result: MigrationResultSet, command: string): void {
  const done = result.results ?? [];
  if (done.length === 0) {
    console.log(
      command === 'down' ? 'No migration is applied; nothing to revert.' : 'The schema is up to date.',
    );
    return;
  }
  for (const r of done) console.log(`${r.direction === 'Up' ? 'Applied' : 'Reverted'} ${r.migrationName}`);
}

async function printStatus<T>(db: Kysely<T>): Promise<void> {
  for (const m of await migrationStatus(db)) {
    console.log(`${m.executedAt ? `applied ${m.executedAt.toISOString()}` : 'pending'}\t${m.name}`);
  }
}

main(process.argv[2]).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
