import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { HealthAnswer, HealthDetailAnswer } from '@api/health';
import { freePort } from '@infra/embedded/ports';
import { readSecrets } from '@infra/embedded/secrets';
import { childrenOf } from '@tests/support/processes';
import { TEMPORAL_CLI } from '@tests/support/temporal';
import { waitFor } from '@tests/support/wait';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm start` as a user runs it: package.json's start script (`tsx <node flags> api/main.ts`) with no configuration but
 * the ports and the data directory, so the embedded Postgres and the Temporal dev server are started, stopped, and
 * found again by the next start.
 */

const TSX = path.resolve('node_modules/.bin/tsx');
const [START_COMMAND, ...START_ARGS] = (
  JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }
).scripts.start.split(/\s+/);
const DATA_ROOT = path.resolve('.data', 'test', `start-${randomBytes(4).toString('hex')}`);

interface Kedai {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const launched: Kedai[] = [];

/** Starts the start script in its own process group (so afterAll can kill whatever it leaves behind). */
function launch(env: Record<string, string>): Kedai {
  expect(START_COMMAND).toBe('tsx');
  const base = { ...process.env };
  // What the machine running the tests may have set must not reach the instance under test.
  for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'HOST']) {
    delete base[name];
  }
  const child = spawn(TSX, START_ARGS, {
    env: { ...base, LOG_LEVEL: 'warn', TEMPORAL_CLI, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const kedai = { child, stdout: () => stdout, stderr: () => stderr, exited };
  launched.push(kedai);
  return kedai;
}

const isRunning = (kedai: Kedai) => kedai.child.exitCode === null && kedai.child.signalCode === null;

/** Resolves with the URL Kedai prints once it is up; fails at once, with its output, if it exits instead. */
async function runningAt(kedai: Kedai): Promise<string> {
  return waitFor(
    () => {
      if (!isRunning(kedai)) throw new Error(`Kedai exited: ${kedai.stdout()}${kedai.stderr()}`);
      return /Kedai is running at (http:\/\/\S+)/.exec(kedai.stdout())?.[1];
    },
    { timeoutMs: 90_000, intervalMs: 100, what: 'Kedai to print its URL' },
  ).catch((error: unknown) => {
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n${kedai.stdout()}${kedai.stderr()}`,
    );
  });
}

async function embeddedSettings(dataDir: string) {
  return {
    DATA_DIR: dataDir,
    PORT: String(await freePort()),
    EMBEDDED_PG_PORT: String(await freePort()),
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
  };
}

/** The public health (up or down only) and the admin's detail, which must agree. */
async function health(url: string, adminToken: string) {
  const open = await fetch(`${url}/api/health`);
  expect(open.status).toBe(200);
  const detail = await fetch(`${url}/api/health/detail`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  expect(detail.status).toBe(200);
  const data = HealthDetailAnswer.parse(await detail.json()).data;
  return HealthAnswer.parse(await open.json()).data.status === data.status ? data : undefined;
}

/** Health once every component is up and the stream catalogue has applied `events` events. */
function healthyWith(url: string, adminToken: string, events: string) {
  return waitFor(
    async () => {
      const data = await health(url, adminToken);
      const [catalogue] = Array.isArray(data?.components.projections) ? data.components.projections : [];
      return data?.status === 'ok' && catalogue?.eventsApplied === events && catalogue.lag === '0' && data;
    },
    { timeoutMs: 30_000, intervalMs: 100, what: `health ok with ${events} events applied` },
  );
}

/** A sign-in through the console's OAuth client. */
function passwordGrant(url: string, username: string, password: string, scope?: 'admin') {
  return fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: 'kedai-console',
      username,
      password,
      ...(scope ? { scope } : {}),
    }),
  });
}

/** The provider's admin signed in with the login the first start printed. */
async function adminToken(url: string, kedai: Kedai) {
  const admin = await waitFor(
    () => /Admin \(\S+\): (\S+)\s+password: (\S+)/.exec(kedai.stdout()) ?? undefined,
    {
      what: 'the admin login to be printed',
    },
  );
  const response = await passwordGrant(url, admin[1]!, admin[2]!, 'admin');
  expect(response.status).toBe(200);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** Processes whose command line names the directory: the embedded Postgres and the Temporal dev server. */
function processesUsing(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(dir)) found.push(`${pid}: ${cmdline}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

async function stop(kedai: Kedai, how: 'SIGTERM' | 'Ctrl-C') {
  if (how === 'SIGTERM') {
    // The signal goes to tsx, which relays it to the node process running Kedai, as a service manager's would.
    kedai.child.kill('SIGTERM');
  } else {
    // A terminal's Ctrl-C reaches the whole process group: tsx, Kedai, the embedded Postgres and Temporal at once.
    process.kill(-kedai.child.pid!, 'SIGINT');
  }
  return waitFor(() => !isRunning(kedai) && kedai.exited, { timeoutMs: 60_000, what: 'Kedai to exit' });
}

afterAll(async () => {
  for (const kedai of launched) {
    if (isRunning(kedai) && kedai.child.pid) process.kill(-kedai.child.pid, 'SIGKILL');
  }
  for (const line of processesUsing(DATA_ROOT)) process.kill(Number(line.split(':')[0]), 'SIGKILL');
  await rm(DATA_ROOT, { recursive: true, force: true });
});

describe('npm start', () => {
  it('starts everything, stops on SIGTERM or Ctrl-C leaving no process behind, and finds its data again', async () => {
    const dataDir = path.join(DATA_ROOT, 'kept');

    const first = launch(await embeddedSettings(dataDir));
    const url = await runningAt(first);
    expect(first.stdout()).toMatch(/Temporal UI: http:\/\/127\.0\.0\.1:\d+/);
    const admin = await adminToken(url, first);
    const up = await healthyWith(url, admin, '1');
    expect(up.components).toMatchObject({
      database: { status: 'up' },
      eventStore: { status: 'up', kind: 'postgres' },
      temporal: { status: 'up' },
    });
    expect(processesUsing(dataDir).length).toBeGreaterThanOrEqual(2);

    // The first start creates a demo seller and prints its login once; that login signs in.
    const demo = /Demo seller: (\S+)\s+password: (\S+)/.exec(first.stdout());
    expect(demo, first.stdout()).not.toBeNull();
    const token = await passwordGrant(url, demo![1]!, demo![2]!);
    expect(token.status).toBe(200);
    // The console is served on the same port, carrying no client secret.
    const page = await (await fetch(`${url}/`)).text();
    expect(page).toContain('<div id="root"></div>');
    expect(page).not.toContain('kedai-console-secret');

    expect(await stop(first, 'SIGTERM')).toEqual({ code: 0, signal: null });
    expect(first.stdout()).toContain('Kedai stopped.');
    expect(processesUsing(dataDir)).toEqual([]);

    const settings = await embeddedSettings(dataDir);
    const second = launch(settings);
    // The admin's token outlives the restart: it is kept in the database.
    await healthyWith(await runningAt(second), admin, '2');
    expect(second.stdout()).not.toContain('Demo seller:');
    // The superuser's password is the cluster's own, made at first start and kept beside it.
    const { postgres: password } = await readSecrets(path.join(dataDir, 'pg'));
    const client = new pg.Client({
      connectionString: `postgres://postgres:${password}@127.0.0.1:${settings.EMBEDDED_PG_PORT}/kedai`,
    });
    await client.connect();
    try {
      const started = await client.query<{ n: string }>(
        "SELECT count(*) AS n FROM es_events WHERE type = 'SystemStarted'",
      );
      expect(started.rows[0]?.n).toBe('2');
    } finally {
      await client.end();
    }

    expect(await stop(second, 'Ctrl-C')).toEqual({ code: 0, signal: null });
    expect(second.stdout()).toContain('Kedai stopped.');
    expect(processesUsing(dataDir)).toEqual([]);
  }, 180_000);

  it('runs the Temporal worker in a process of its own, whose death stops everything', async () => {
    const dataDir = path.join(DATA_ROOT, 'worker');
    const kedai = launch(await embeddedSettings(dataDir));
    await runningAt(kedai);
    const api = childrenOf(kedai.child.pid!).find((c) => c.cmdline.includes('api/main.ts'));
    expect(api, 'the node process of api/main.ts').toBeDefined();
    const worker = childrenOf(api!.pid).find((c) => c.cmdline.includes('workflows/worker-main.ts'));
    expect(worker, 'the worker process, a child of the API').toBeDefined();

    process.kill(worker!.pid, 'SIGKILL');
    expect(
      await waitFor(() => !isRunning(kedai) && kedai.exited, { timeoutMs: 60_000, what: 'Kedai to exit' }),
    ).toEqual({
      code: 1,
      signal: null,
    });
    expect(kedai.stderr()).toContain(
      'The Temporal worker process ended (killed by SIGKILL). Stopping Kedai.',
    );
    expect(kedai.stdout()).toContain('Kedai stopped.');
    expect(processesUsing(dataDir)).toEqual([]);
  }, 120_000);

  /** Runs Kedai with a bad setting: it must exit 1 with one line naming the setting and no stack trace. */
  async function refusal(env: Record<string, string>): Promise<string> {
    const kedai = launch({ ...(await embeddedSettings(path.join(DATA_ROOT, 'refused'))), ...env });
    expect(await kedai.exited).toEqual({ code: 1, signal: null });
    const lines = kedai.stderr().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(kedai.stderr()).not.toMatch(/^\s+at /m);
    return lines[0]!;
  }

  it('refuses a malformed DATABASE_URL in one sentence', async () => {
    expect(await refusal({ DATABASE_URL: 'not-a-url' })).toMatch(/^DATABASE_URL .*must be a URL/);
  });

  it('refuses a malformed EVENTSTORE_URL in one sentence', async () => {
    expect(await refusal({ EVENTSTORE_URL: 'http://x' })).toMatch(/^EVENTSTORE_URL .*must be a URL/);
  });

  it('names DATABASE_URL when nothing answers there', async () => {
    const url = `postgres://kedai:kedai@127.0.0.1:${await freePort()}/kedai`;
    expect(await refusal({ DATABASE_URL: url })).toMatch(/DATABASE_URL cannot be reached/);
  });

  it('names PORT when the port is taken, before starting anything', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const address = taken.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      const line = await refusal({ PORT: String(port) });
      expect(line).toBe(
        `Port ${port} (PORT) is already in use; stop what uses it or set PORT to a free port.`,
      );
    } finally {
      taken.close();
    }
    expect(processesUsing(path.join(DATA_ROOT, 'refused'))).toEqual([]);
  });
});
