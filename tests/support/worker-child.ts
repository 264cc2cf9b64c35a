import { eventSchemas } from '@domain/events';
import { config } from '@infra/config';
import { EventSchemaRegistry } from '@infra/eventstore';
import { createMailer } from '@infra/mail';
import { openInfrastructure } from '@infra/platform';
import { createKedaiWorker } from '@infra/temporal';
import { projections } from '@projections/index';
import { ProjectionEngine } from '@projections/runtime/engine';
import { createActivities } from '@workflows/activities';

/**
 * A Kedai worker in a process of its own, so a test can SIGKILL it mid-activity. Reads DATABASE_URL,
 * TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_TASK_QUEUE, and KEDAI_WORKFLOW_BUNDLE when the test run bundled
 * the workflow code once (else it bundles its own); prints "worker ready" once it polls.
 */
async function main(): Promise<void> {
  const settings = config();
  if (settings.temporal.server.kind !== 'external') throw new Error('Set TEMPORAL_ADDRESS for the worker.');
  const infra = await openInfrastructure(settings, new EventSchemaRegistry().registerAll(eventSchemas));
  const engine = new ProjectionEngine({ db: infra.db, store: infra.store, projections });
  const worker = await createKedaiWorker({
    address: settings.temporal.server.address,
    namespace: settings.temporal.namespace,
    taskQueue: settings.temporal.taskQueue,
    activities: createActivities({
      engine,
      db: infra.db,
      store: infra.store,
      mailer: createMailer(infra.db, settings.mail, { info() {}, error() {} }),
      webhookTargets: settings.webhooks,
    }),
    bundlePath: process.env.KEDAI_WORKFLOW_BUNDLE || undefined,
  });
  const stop = () => void worker.shutdown();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  const running = worker.run();
  console.log('worker ready');
  try {
    await running;
  } finally {
    await infra.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
