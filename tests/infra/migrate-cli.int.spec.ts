import { readdirSync } from 'node:fs';
import path from 'node:path';
import { columns } from '@infra/db/schema';
import { spawnTsx } from '@tests/support/child';
import { createTestDatabase, type TestDatabase } from '@tests/support/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('npm run migrate', () => {
  let database: TestDatabase;
  const migrate = async (...args: string[]) => {
    const child = spawnTsx('infra/db/migrate-cli.ts', args, { DATABASE_URL: database.url });
    return { code: await child.exited, output: child.output() };
  };
  const tables = async () =>
    (
      await database.pool.query<{ tablename: string }>(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'kysely%' ORDER BY 1",
      )
    ).rows.map((r) => r.tablename);
  /**
   * Every column of the schema, as table.column, every row-level security policy and every check constraint: what a
   * migration changes.
   */
  const shape = async () =>
    (
      await database.pool.query<{ name: string }>(
        `SELECT table_name || '.' || column_name AS name FROM information_schema.columns
         WHERE table_schema = 'public' AND table_name NOT LIKE 'kysely%'
         UNION ALL
         SELECT tablename || ' policy ' || policyname || ' ' || qual FROM pg_policies WHERE schemaname = 'public'
         UNION ALL
         SELECT conrelid::regclass || ' check ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
         WHERE connamespace = 'public'::regnamespace AND contype = 'c'
         ORDER BY 1`,
      )
    ).rows.map((r) => r.name);

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('lists, applies and reverts the migrations', async () => {
    const migrations = readdirSync(path.resolve('infra/db/migrations'))
      .map((file) => file.replace(/\.ts$/, ''))
      .sort();
    const newest = migrations.at(-1)!;
    const before = await migrate('status');
    expect(before.code).toBe(0);
    for (const name of migrations) expect(before.output).toContain(`pending\t${name}`);

    expect(await migrate()).toMatchObject({ code: 0 });
    expect(await tables()).toEqual(Object.keys(columns).sort());
    expect((await migrate('status')).output).toMatch(new RegExp(`applied \\S+\\t${newest}`));
    const migrated = await shape();

    const down = await migrate('down');
    expect(down.code).toBe(0);
    expect(down.output).toContain(`Reverted ${newest}`);
    // Reverting the newest migration changed the schema, and left the older tables.
    expect(await shape()).not.toEqual(migrated);
    const left = await tables();
    expect(left).toEqual(expect.arrayContaining(['es_events', 'projection_checkpoints', 'stream_catalogue']));
    expect((await migrate('status')).output).toContain(`pending\t${newest}`);
  });

  it('refuses an unknown command', async () => {
    const result = await migrate('sideways');
    expect(result.code).toBe(1);
  });
});
