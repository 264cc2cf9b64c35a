import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@infra/config';
import { ensureDatabase, startEmbeddedPostgres } from './postgres';
import { ROLES, readSecrets, USER } from './secrets';

const EMBEDDED_DATABASE = 'kedai';

export interface DatabaseServer {
  /** As the schema's owner: migrations. */
  url: string;
  /** As the app role, which row-level security binds to the request's tenant: the API's queries. */
  appUrl: string;
  /** As the system role: the projection engine, reactors, live hub, workflow activities, pre-sign-in lookups. */
  systemUrl: string;
  /** Stops the server when this process started it; otherwise does nothing. */
  stop(): Promise<void>;
  startedHere: boolean;
}

/**
 * The database the configuration names. With DATABASE_URL, that server. Without it, the embedded server in
 * DATA_DIR/pg: reused when another Kedai process (npm start) already runs it, started here otherwise.
 */
export async function openDatabaseServer(
  database: Config['database'],
  opts: { onLog?: (line: string) => void; settings?: Record<string, string | number> } = {},
): Promise<DatabaseServer> {
  if (database.kind === 'external') {
    return {
      url: database.url,
      appUrl: database.appUrl ?? asRole(database.url, ROLES.app),
      systemUrl: database.systemUrl ?? asRole(database.url, ROLES.system),
      stop: async () => undefined,
      startedHere: false,
    };
  }
  const running = await runningPort(database.dir);
  if (running !== undefined) {
    const secrets = await readSecrets(database.dir);
    const at = (user: string, password: string) =>
      `postgres://${user}:${password}@127.0.0.1:${running}/${EMBEDDED_DATABASE}`;
    return {
      url: at(USER, secrets.postgres),
      appUrl: at(ROLES.app, secrets[ROLES.app]),
      systemUrl: at(ROLES.system, secrets[ROLES.system]),
      stop: async () => undefined,
      startedHere: false,
    };
  }
  const server = await startEmbeddedPostgres({
    dir: database.dir,
    port: database.port,
    portSetting: 'EMBEDDED_PG_PORT',
    onLog: opts.onLog,
    settings: opts.settings,
  });
  await ensureDatabase(server, EMBEDDED_DATABASE);
  return {
    url: server.url(EMBEDDED_DATABASE),
    appUrl: server.roleUrl('app', EMBEDDED_DATABASE),
    systemUrl: server.roleUrl('system', EMBEDDED_DATABASE),
    stop: () => server.stop(),
    startedHere: true,
  };
}

/**
 * DATABASE_URL's user connecting as one of Kedai's roles: the tenancy migration made it a member of both (which is
 * why it needs CREATEROLE, or the roles made beforehand with it as their admin), and `role` set at connection start
 * puts the session under that role's grants and policies.
 */
function asRole(url: string, role: string): string {
  const parsed = new URL(url);
  const options = parsed.searchParams.get('options');
  parsed.searchParams.set('options', `${options ? `${options} ` : ''}-c role=${role}`);
  return parsed.toString();
}

/** The port of a live postmaster for this data directory, read from its postmaster.pid. */
async function runningPort(dir: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const [pidLine, , , portLine] = text.split('\n');
  const pid = Number(pidLine);
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    process.kill(pid, 0);
  } catch {
    return undefined;
  }
  const port = Number(portLine);
  return Number.isInteger(port) ? port : undefined;
}
