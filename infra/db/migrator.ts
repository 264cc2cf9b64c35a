import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Kysely, type Migration, type MigrationInfo, type MigrationResultSet, Migrator } from 'kysely';

const migrationsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Timestamped files `YYYYMMDDHHMMSS_name.ts` in infra/db/migrations, each exporting `up` and `down`. */
async function loadMigrations(): Promise<Record<string, Migration>> {
  const files = (await readdir(migrationsDir)).filter((f) => /^\d{14}_[\w-]+\.ts$/.test(f)).sort();
  const entries = await Promise.all(
    files.map(async (file) => {
      const module = (await import(pathToFileURL(path.join(migrationsDir, file)).href)) as Migration;
      return [file.replace(/\.ts$/, ''), { up: module.up, down: module.down }] as const;
    }),
  );
  return Object.fromEntries(entries);
}

function migrator<T>(db: Kysely<T>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: loadMigrations },
    migrationTableName: 'kysely_migration',
    migrationLockTableName: 'kysely_migration_lock',
  });
}

function unwrap(result: MigrationResultSet): MigrationResultSet {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error');
    const reason = result.error instanceof Error ? result.error.message : String(result.error);
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
  return result;
}

export async function migrateToLatest<T>(db: Kysely<T>): Promise<MigrationResultSet> {
  return unwrap(await migrator(db).migrateToLatest());
}

export async function migrateDown<T>(db: Kysely<T>): Promise<MigrationResultSet> {
  return unwrap(await migrator(db).migrateDown());
}

export async function migrateDownAll<T>(db: Kysely<T>): Promise<MigrationResultSet> {
  const { NO_MIGRATIONS } = await import('kysely');
  return unwrap(await migrator(db).migrateTo(NO_MIGRATIONS));
}

/** Every migration, with when it was applied (undefined while pending). */
export async function migrationStatus<T>(db: Kysely<T>): Promise<readonly MigrationInfo[]> {
  return migrator(db).getMigrations();
}
