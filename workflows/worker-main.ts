import { ensureStockReconcileSchedule } from '@commands/channels/reconcile-schedule';
import { createStockPushReactor } from '@commands/channels/stock-push-reactor';
import { createGoodsIssueWorkflowReactor } from '@commands/goods-issue/workflow-reactor';
import { ensureHoldReleaseSchedule } from '@commands/orders/hold-release-schedule';
import { createOrderStockReactor } from '@commands/orders/stock-reactor';
import { createPromotionPushReactor } from '@commands/promotions/workflow-reactor';
import { createPurchaseWorkflowReactor } from '@commands/purchases/workflow-reactor';
import { createTransferWorkflowReactor } from '@commands/transfers/workflow-reactor';
import { createWebhookWakeReactor } from '@commands/webhooks/wake-reactor';
import { eventSchemas } from '@domain/events';
import { config as readConfig } from '@infra/config';
import { EventSchemaRegistry } from '@infra/eventstore';
import { createMailer } from '@infra/mail';
import { openInfrastructure } from '@infra/platform';
import { createKedaiWorker } from '@infra/temporal';
import { connectTemporal } from '@infra/temporal/client';
import type { FromWorker, ToWorker, WorkerLogLevel } from '@infra/temporal/worker-process';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { LiveHub } from '@projections/runtime/live-hub';
import { ReactorRunner } from '@projections/runtime/reactor';
import type { Logger as TemporalLogger } from '@temporalio/common';
import { Runtime } from '@temporalio/worker';
import { createActivities } from '@workflows/activities';

/**
 * Kedai's background process (infra/temporal/worker-process.ts starts it): the Temporal worker (workflows and
 * activities), the projections and the reactors, on a database connection and a Temporal connection of its own, so
 * that neither the worker's native core nor a catch-up of the log weighs on the API's memory. The projections' changes
 * reach the API's websockets through the live hub's NOTIFY. It starts when its supervisor says where to connect,
 * answers `ready` once the worker runs, forwards its log lines, and stops when told to, or when the supervisor is
 * gone.
 */

if (!process.send) {
  console.error('workflows/worker-main.ts is started by npm start (api/main.ts), not on its own.');
  process.exit(1);
}

const send = (message: FromWorker) => {
  if (!process.connected) return;
  try {
    process.send!(message);
  } catch {
    // Log details that cannot be cloned (a function in the metadata): the line still goes, without them.
    if (message.kind === 'log') process.send!({ ...message, meta: {} });
  }
};

function logger(component: string) {
  const at = (level: WorkerLogLevel) => (meta: object, message: string) =>
    send({ kind: 'log', level, component, message, meta });
  return { trace: at('trace'), debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

function temporalLogger(): TemporalLogger {
  const target = logger('temporal');
  const levels = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' } as const;
  const log: TemporalLogger = {
    log: (level, message, meta) => target[levels[level]](meta ?? {}, message),
    trace: (message, meta) => log.log('TRACE', message, meta),
    debug: (message, meta) => log.log('DEBUG', message, meta),
    info: (message, meta) => log.log('INFO', message, meta),
    warn: (message, meta) => log.log('WARN', message, meta),
    error: (message, meta) => log.log('ERROR', message, meta),
  };
  return log;
}

// Ctrl-C reaches the whole process group; the supervisor stops this process after the API, so signals are ignored.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

let stop: (() => Promise<void>) | undefined;
let stopping = false;

async function stopAndExit(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await stop?.().catch(() => undefined);
  }
  process.exit(code);
}

async function start(message: Extract<ToWorker, { kind: 'start' }>): Promise<void> {
  const settings = readConfig();
  const infra = await openInfrastructure(
    // The supervisor's database, whatever the configuration would start: it is already running. The worker's work
    // (activities, rebuilds) is cross-tenant, so it is handed the system role's login only, never the owner's.
    {
      ...settings,
      database: {
        kind: 'external',
        url: message.databaseUrl,
        appUrl: message.databaseUrl,
        systemUrl: message.databaseUrl,
      },
    },
    new EventSchemaRegistry().registerAll(eventSchemas),
    { poolSize: 10 },
  );
  const engine = new ProjectionEngine({
    db: infra.db,
    store: infra.store,
    projections,
    hub: new LiveHub(infra.pool),
    logger: logger('projections'),
  });
  let temporal: Awaited<ReturnType<typeof connectTemporal>>;
  try {
    temporal = await connectTemporal({
      address: message.temporalAddress,
      namespace: settings.temporal.namespace,
    });
  } catch (error) {
    await infra.close().catch(() => undefined);
    throw error;
  }
  const workflows = { client: temporal.client, taskQueue: settings.temporal.taskQueue };
  try {
    // Held orders wait for a new month or a larger package: without the schedule they would stay held.
    await ensureHoldReleaseSchedule(workflows);
    // Drift (a sale on the marketplace's own page while Kedai was down, a hand edit) is corrected hourly.
    await ensureStockReconcileSchedule(workflows);
  } catch (error) {
    await temporal.close().catch(() => undefined);
    await infra.close().catch(() => undefined);
    throw error;
  }
  const reactorLog = logger('reactors');
  const reactors = new ReactorRunner({
    db: infra.db,
    store: infra.store,
    reactors: [
      createOrderStockReactor({ db: infra.db, store: infra.store, logger: reactorLog }),
      createTransferWorkflowReactor({ store: infra.store, workflows }),
      createGoodsIssueWorkflowReactor({ store: infra.store, workflows }),
      createPurchaseWorkflowReactor({ store: infra.store, workflows }),
      createPromotionPushReactor({ workflows }),
      createStockPushReactor({ db: infra.db, store: infra.store, workflows }),
      createWebhookWakeReactor({ db: infra.db, workflows }),
    ],
    logger: reactorLog,
  });
  const mailLog = logger('mail');
  const mailer = createMailer(infra.db, settings.mail, mailLog);
  Runtime.install({
    logger: temporalLogger(),
    // This process stops at its supervisor's word, not at a signal.
    shutdownSignals: [],
    telemetryOptions: { logging: { forward: {} } },
  });
  let worker: Awaited<ReturnType<typeof createKedaiWorker>>;
  try {
    worker = await createKedaiWorker({
      address: message.temporalAddress,
      namespace: settings.temporal.namespace,
      taskQueue: settings.temporal.taskQueue,
      activities: createActivities({
        engine,
        db: infra.db,
        store: infra.store,
        mailer,
        webhookTargets: settings.webhooks,
      }),
      bundlePath: message.bundlePath,
    });
  } catch (error) {
    await temporal.close().catch(() => undefined);
    await infra.close().catch(() => undefined);
    throw error;
  }
  engine.start();
  reactors.start();
  stop = async () => {
    await worker.shutdown();
    await reactors.stop();
    await engine.stop();
    await temporal.close();
    await infra.close();
  };
  // Ending on its own, the worker broke: this process exits 1 and its supervisor stops the rest.
  worker.run().then(
    () => {
      if (stopping) return;
      logger('temporal').error({}, 'the Temporal worker stopped');
      return stopAndExit(1);
    },
    (error: unknown) => {
      if (stopping) return;
      logger('temporal').error({ err: error }, 'the Temporal worker failed');
      return stopAndExit(1);
    },
  );
  send({ kind: 'ready' });
}

process.on('message', (message: ToWorker) => {
  if (message.kind === 'start') {
    start(message).catch((error: unknown) => {
      send({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
      void stopAndExit(1);
    });
  } else if (message.kind === 'stop') {
    void stopAndExit(0);
  }
});
// The supervisor gone (killed, say) leaves no one to stop this process: it stops on its own.
process.on('disconnect', () => void stopAndExit(0));
