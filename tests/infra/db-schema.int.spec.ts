import { migrateDownAll, migrateToLatest } from '@infra/db/migrator';
import { columns } from '@infra/db/schema';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `columns` (from which the typed `Database` is derived) against the migrated schema. */
async function schemaOf(database: TestDatabase) {
  const rows = await sql<{
    table_name: string;
    column_name: string;
    udt_name: string;
    is_nullable: 'YES' | 'NO';
  }>`
    SELECT table_name, column_name, udt_name, is_nullable FROM information_schema.columns
    WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely_%'
    ORDER BY table_name, column_name`.execute(database.db);
  const schema: Record<string, Record<string, { type: string; nullable: boolean }>> = {};
  for (const row of rows.rows) {
    schema[row.table_name] ??= {};
    schema[row.table_name]![row.column_name] = { type: row.udt_name, nullable: row.is_nullable === 'YES' };
  }
  return schema;
}

describe('database schema', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('matches the typed Database interface, table by table and column by column', async () => {
    const expected = Object.fromEntries(
      Object.entries(columns).map(([table, cols]) => [
        table,
        Object.fromEntries(Object.entries(cols).map(([name, spec]) => [name, { ...spec }])),
      ]),
    );
    expect(await schemaOf(database)).toEqual(expected);
  });

  it('migrates down to nothing and back up to the same schema', async () => {
    const before = await schemaOf(database);
    await migrateDownAll(database.db);
    expect(await schemaOf(database)).toEqual({});
    await migrateToLatest(database.db);
    expect(await schemaOf(database)).toEqual(before);
  });
});
