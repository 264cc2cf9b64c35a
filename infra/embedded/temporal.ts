import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { run } from '@infra/tools/run';
import { Connection } from '@temporalio/client';
import { assertPortFree } from './ports';

/** The Temporal CLI release whose module can still be `go install`ed (later ones carry a `replace` directive). */
const CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

const READY_DEADLINE_MS = 60_000;
const STOP_GRACE_MS = 10_000;

/**
 * Starts `temporal server start-dev` with its state in `dbFile`, and resolves once the frontend answers for the
 * namespace. Fails with one sentence naming the port setting when a port is taken, or quoting the server's last log
 * line when it exits or does not answer in time.
 */
export async function startTemporalDevServer(opts: {
  cli: string;
  port: number;
  uiPort: number;
  dbFile: string;
  namespace: string;
  onLog?: (line: string) => void;
}): Promise<{ address: string; stop(): Promise<void> }> {
  await assertPortFree(opts.port, 'TEMPORAL_PORT');
  await assertPortFree(opts.uiPort, 'TEMPORAL_UI_PORT');
  if (!existsSync(opts.cli)) {
    throw new Error(
      `The Temporal CLI is missing at ${opts.cli}; run npm run setup, or set TEMPORAL_ADDRESS to an existing server.`,
    );
  }
  await mkdir(path.dirname(opts.dbFile), { recursive: true });

  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--db-filename',
    opts.dbFile,
    '--log-level',
    'warn',
  ];
  // "default" is always created; naming it again is at best redundant.
  if (opts.namespace !== 'default') args.push('--namespace', opts.namespace);

  const child = spawn(opts.cli, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => {
    for (const raw of chunk.toString('utf8').split('\n')) {
      const line = raw.trim();
      if (!line) continue;
      lines.push(line);
      opts.onLog?.(line);
    }
    if (lines.length > 50) lines.splice(0, lines.length - 50);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      spawnError = error;
      // A process that never started emits no 'exit'.
      if (child.pid === undefined) resolve();
    });
  });
  // Whatever way this process ends, a dev server it started must not outlive it.
  const killOnExit = () => {
    if (isRunning(child)) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      // A Ctrl-C on the terminal reaches the server too, so it may be gone or going already.
      if (isRunning(child)) child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const forced = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          if (isRunning(child)) child.kill('SIGKILL');
          resolve();
        }, STOP_GRACE_MS);
      });
      await Promise.race([exited, forced]);
      clearTimeout(timer);
      await exited;
    })();
    return stopping;
  };

  const address = `127.0.0.1:${opts.port}`;
  // Shutdown chatter follows the line that says why, so prefer the last error.
  const lastLine = () =>
    lines.findLast((l) => /level=(ERROR|FATAL)|panic:/.test(l)) ??
    lines.at(-1) ??
    spawnError?.message ??
    'it printed nothing';
  const deadline = Date.now() + READY_DEADLINE_MS;
  let processGone = false;
  void exited.then(() => {
    processGone = true;
  });
  for (;;) {
    if (processGone || spawnError) {
      await stop();
      throw new Error(
        `The Temporal dev server (${opts.cli}) exited before it was ready: ${quote(lastLine())}.`,
      );
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(
        `The Temporal dev server did not answer on ${address} within ${READY_DEADLINE_MS / 1000} s: ${quote(lastLine())}.`,
      );
    }
    if (await answers(address, opts.namespace)) return { address, stop };
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 200))]);
  }
}

/** True once the frontend accepts a connection and knows the namespace (the dev server creates it at start). */
async function answers(address: string, namespace: string): Promise<boolean> {
  let connection: Connection | undefined;
  try {
    connection = await Connection.connect({ address, connectTimeout: 1_000 });
    await connection.workflowService.describeNamespace({ namespace });
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null && child.pid !== undefined;
}

function quote(line: string): string {
  // The server logs `time=… level=ERROR msg="…" error=…`; the msg (and error, when given) is what a reader needs.
  const msg = /\bmsg="((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
  const error = /\berror="((?:[^"\\]|\\.)*)"/.exec(line)?.[1];
  const text = msg ? (error ? `${msg}: ${error}` : msg) : line;
  return `"${text.replace(/\\"/g, "'").replace(/\.$/, '')}"`;
}

/**
 * Builds the Temporal CLI into dirname(cliPath) with `go install` when it is not there yet. Throws one sentence when
 * Go is missing or the build fails.
 */
export async function ensureTemporalCli(cliPath: string, log?: (line: string) => void): Promise<void> {
  if (existsSync(cliPath)) return;
  const gobin = path.dirname(cliPath);
  const version = await run('go', ['version']).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      throw new Error(
        `The Temporal CLI is missing at ${cliPath} and Go is not installed to build it; install Go (https://go.dev/dl/) or set TEMPORAL_ADDRESS to an existing Temporal server.`,
      );
    }
    throw error;
  });
  if (version.code !== 0) {
    throw new Error(`Go is installed but "go version" failed: ${quote(lastOf(version.output))}.`);
  }
  await mkdir(gobin, { recursive: true });
  log?.(
    `Building the Temporal CLI into ${gobin} with go install ${CLI_MODULE} (a few minutes the first time).`,
  );
  const built = await run('go', ['install', CLI_MODULE], { env: { ...process.env, GOBIN: gobin } });
  if (built.code !== 0) {
    throw new Error(
      `Building the Temporal CLI (go install ${CLI_MODULE}) failed: ${quote(lastOf(built.output))}.`,
    );
  }
  const installed = path.join(gobin, 'temporal');
  if (installed !== cliPath && existsSync(installed)) await rename(installed, cliPath);
  if (!existsSync(cliPath)) {
    throw new Error(`go install ${CLI_MODULE} finished but ${cliPath} is still missing.`);
  }
}

function lastOf(lines: string[]): string {
  return lines.findLast((line) => line.trim())?.trim() ?? 'no output';
}
