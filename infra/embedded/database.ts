import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '@infra/config';
import { ensureDatabase, startEmbeddedPostgres } from './postgres';

const EMBEDDED_DATABASE = 'kedai';

export interface DatabaseServer {
  url: string;
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
  if (database.kind === 'external')
    return { url: database.url, stop: async () => undefined, startedHere: false };
  const running = await runningPort(database.dir);
  const credentials = 'postgres:kedai@127.0.0.1';
  if (running !== undefined) {
    return {
      url: `postgres://${credentials}:${running}/${EMBEDDED_DATABASE}`,
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
  return { url: server.url(EMBEDDED_DATABASE), stop: () => server.stop(), startedHere: true };
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
