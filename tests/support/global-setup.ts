import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@infra/embedded/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@infra/embedded/postgres';
import { secretsFile } from '@infra/embedded/secrets';
import { writeWorkflowBundle } from '@infra/temporal';
import { ensureConsoleBuilt } from '@infra/web/build';
import type { TestProject } from 'vitest/node';
import { startTestTemporal, type TestTemporal } from './temporal';

/** One embedded Postgres for the whole run; every test file makes its own database on it (tests/support/db.ts). */
let server: EmbeddedPostgresServer | undefined;
let dir: string | undefined;
let temporal: TestTemporal | undefined;

export async function setup(project: TestProject): Promise<void> {
  dir = path.resolve('.data', 'test', `pg-${process.pid}`);
  await rm(dir, { recursive: true, force: true });
  await rm(secretsFile(dir), { force: true });
  server = await startEmbeddedPostgres({
    dir,
    port: await freePort(),
    // Tests need a real server, not a durable one.
    settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: 300 },
  });
  project.provide('postgresUrl', server.url());
  project.provide('postgresRoleUrls', { app: server.roleUrl('app'), system: server.roleUrl('system') });
  // One Temporal dev server for the run, and the workflow code bundled once: each test file runs its workers on
  // task queues of its own (tests/support/temporal.ts sharedTemporal). Starting both does not stop the run when it
  // fails: the files that need them fail with the reason.
  const [temporalStarted, bundled] = await Promise.all([
    startTestTemporal().then(
      (started) => ({ started, error: '' }),
      (error: unknown) => ({
        started: undefined,
        error: error instanceof Error ? error.message : String(error),
      }),
    ),
    writeWorkflowBundle(path.join(dir, 'workflows.js')).then(
      () => '',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    ),
  ]);
  temporal = temporalStarted.started;
  project.provide('temporalAddress', temporal?.address ?? '');
  project.provide('temporalError', temporalStarted.error);
  project.provide('workflowBundlePath', bundled ? '' : path.join(dir, 'workflows.js'));
  project.provide('workflowBundleError', bundled);
  // The console, built once for the browser tests and for `npm start` under test (a no-op when it is up to date).
  // A broken build fails the tests that need the console, with the build's error, not the whole run.
  const built = await ensureConsoleBuilt().then(
    () => '',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  project.provide('consoleBuildError', built);
}

export async function teardown(): Promise<void> {
  await temporal?.stop();
  await server?.stop();
  if (dir) {
    await rm(dir, { recursive: true, force: true });
    await rm(secretsFile(dir), { force: true });
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's embedded Postgres as its superuser (database `postgres`). */
    postgresUrl: string;
    /** The same as Kedai's app and system roles. */
    postgresRoleUrls: { app: string; system: string };
    /** Empty when the console built; otherwise why it did not. */
    consoleBuildError: string;
    /** The run's Temporal dev server (namespace default); empty when it did not start (temporalError says why). */
    temporalAddress: string;
    temporalError: string;
    /** The workflow code bundled once for every test worker; empty when bundling failed (workflowBundleError). */
    workflowBundlePath: string;
    workflowBundleError: string;
  }
}
