import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@infra/embedded/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@infra/embedded/postgres';
import type { TestProject } from 'vitest/node';

/** One embedded Postgres for the whole run; every test file makes its own database on it (tests/support/db.ts). */
let server: EmbeddedPostgresServer | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = path.resolve('.data', 'test', `pg-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  server = await startEmbeddedPostgres({
    dir,
    port: await freePort(),
    // Tests need a real server, not a durable one.
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 300 },
  });
  project.provide('postgresUrl', server.url());
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}
