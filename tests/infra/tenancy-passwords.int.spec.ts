import { chmod, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@infra/embedded/ports';
import { startEmbeddedPostgres } from '@infra/embedded/postgres';
import { LEGACY_PASSWORD, secretsFile } from '@infra/embedded/secrets';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The embedded cluster's passwords: random at first start, kept 0600 beside the cluster, the same at later starts. */
describe('the embedded Postgres passwords', () => {
  let base: string;
  let dir: string;

  beforeAll(async () => {
    base = await mkdtemp(path.resolve('.data', 'tenancy-passwords-'));
    // The server runs as its own account (postgres when we are root), which must reach the cluster's directory.
    await chmod(base, 0o755);
    dir = path.join(base, 'pg');
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  const signsIn = async (port: number, user: string, password: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user, password, database: 'postgres' });
    try {
      await client.connect();
      return true;
    } catch (error) {
      if ((error as { code?: string }).code === '28P01') return false;
      throw error;
    } finally {
      await client.end().catch(() => undefined);
    }
  };

  const secrets = async () =>
    JSON.parse(await readFile(secretsFile(dir), 'utf8')) as Record<
      'postgres' | 'kedai_app' | 'kedai_system',
      string
    >;

  it('makes random passwords at first start, in a file only its owner may read, and keeps them', async () => {
    const port = await freePort();
    const server = await startEmbeddedPostgres({ dir, port });
    const first = await secrets();
    try {
      expect((await stat(secretsFile(dir))).mode & 0o777).toBe(0o600);
      expect(secretsFile(dir).startsWith(base)).toBe(true);
      expect(new Set(Object.values(first)).size).toBe(3);
      for (const password of Object.values(first)) expect(password.length).toBeGreaterThanOrEqual(32);
      expect(await signsIn(port, 'postgres', first.postgres)).toBe(true);
      expect(await signsIn(port, 'postgres', LEGACY_PASSWORD)).toBe(false);
      expect(await signsIn(port, 'kedai_app', first.kedai_app)).toBe(true);
      expect(await signsIn(port, 'kedai_system', first.kedai_system)).toBe(true);
      expect(server.url()).toContain(first.postgres);
    } finally {
      await server.stop();
    }
    const again = await startEmbeddedPostgres({ dir, port });
    try {
      expect(await secrets()).toEqual(first);
      expect(await signsIn(port, 'postgres', first.postgres)).toBe(true);
    } finally {
      await again.stop();
    }
  });

  it('starts a cluster an older Kedai made with the fixed password, and moves it to a random one', async () => {
    const port = await freePort();
    const server = await startEmbeddedPostgres({ dir, port });
    try {
      // What an older Kedai left: the fixed password, and no file.
      const client = new pg.Client({ connectionString: server.url() });
      await client.connect();
      await client.query(`ALTER ROLE postgres PASSWORD '${LEGACY_PASSWORD}'`);
      await client.end();
    } finally {
      await server.stop();
    }
    await rm(secretsFile(dir));
    const upgraded = await startEmbeddedPostgres({ dir, port });
    try {
      const now = await secrets();
      expect((await stat(secretsFile(dir))).mode & 0o777).toBe(0o600);
      expect(now.postgres).not.toBe(LEGACY_PASSWORD);
      expect(await signsIn(port, 'postgres', now.postgres)).toBe(true);
      expect(await signsIn(port, 'postgres', LEGACY_PASSWORD)).toBe(false);
      expect(await signsIn(port, 'kedai_app', now.kedai_app)).toBe(true);
    } finally {
      await upgraded.stop();
    }
  });
});
