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

  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('lists, applies and reverts the migrations', async () => {
    const before = await migrate('status');
    expect(before.code).toBe(0);
    expect(before.output).toMatch(/pending\t20261121000000_event_store/);
    expect(before.output).toMatch(/pending\t20261121000100_projections/);

    expect(await migrate()).toMatchObject({ code: 0 });
    expect(await tables()).toEqual(['es_events', 'projection_checkpoints', 'stream_catalogue']);
    expect((await migrate('status')).output).toMatch(/applied \S+\t20261121000100_projections/);

    const down = await migrate('down');
    expect(down.code).toBe(0);
    expect(down.output).toContain('Reverted 20261121000100_projections');
    expect(await tables()).toEqual(['es_events']);
  });

  it('refuses an unknown command', async () => {
    const result = await migrate('sideways');
    expect(result.code).toBe(1);
  });
});
