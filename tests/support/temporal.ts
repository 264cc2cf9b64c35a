import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { WorkflowDeps } from '@api/workflows';
import { createKedaiWorker } from '@infra/temporal';
import { Client, Connection } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { type ActivityDeps, createActivities } from '@workflows/activities';
import { inject } from 'vitest';

export const TEMPORAL_CLI = path.resolve('.tools/bin/temporal');

export interface TestTemporal {
  env: TestWorkflowEnvironment;
  address: string;
  namespace: string;
  /** Stops the dev server (and its connections). */
  stop(): Promise<void>;
}

/**
 * The real Temporal dev server, from the CLI built by `npm run setup`, on a random port with in-memory state: what
 * the tests run workflows against (time skipping would not exercise heartbeats and retries as production does).
 */
export async function startTestTemporal(): Promise<TestTemporal> {
  const namespace = 'default';
  // The SDK gives the server 5 s to answer, which a loaded 2-core machine can miss while another test file boots its
  // own servers; a fresh attempt on a fresh port then succeeds. A server that cannot start fails all three.
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    try {
      const env = await TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path: TEMPORAL_CLI },
          namespace,
          ip: '127.0.0.1',
          log: { format: 'pretty', level: 'error' },
        },
      });
      return { env, address: env.address, namespace, stop: () => env.teardown() };
    } catch (error) {
      lastError = error;
    }
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new Error(
    `The Temporal dev server (${TEMPORAL_CLI}) did not start; run npm run setup to build it (${reason}).`,
  );
}

/** The run's shared dev server (tests/support/global-setup.ts): its address and the bundled workflow code. */
export function sharedTemporal(): { address: string; namespace: string; bundlePath: string } {
  const address = inject('temporalAddress');
  if (!address) throw new Error(`The Temporal dev server did not start: ${inject('temporalError')}`);
  const bundlePath = inject('workflowBundlePath');
  if (!bundlePath) throw new Error(`The workflow code did not bundle: ${inject('workflowBundleError')}`);
  return { address, namespace: 'default', bundlePath };
}

/**
 * Workflow dependencies that connect only when used: for apps under test that never reach a workflow. A call that
 * does reach one fails as with a server that is down.
 */
export function unusedWorkflows(): WorkflowDeps {
  return {
    client: new Client({ connection: Connection.lazy({ address: '127.0.0.1:1' }) }),
    taskQueue: 'unused',
  };
}

/**
 * A worker in this process on the run's shared dev server, polling a task queue of its own, with the activities
 * bound to `deps`; and the client the routes use. `stop()` shuts the worker down and closes both connections.
 */
export async function startTestWorker(
  deps: ActivityDeps,
): Promise<{ workflows: WorkflowDeps; stop(): Promise<void> }> {
  const shared = sharedTemporal();
  const taskQueue = `test-${randomBytes(6).toString('hex')}`;
  const worker = await createKedaiWorker({
    address: shared.address,
    namespace: shared.namespace,
    taskQueue,
    activities: createActivities(deps),
    bundlePath: shared.bundlePath,
  });
  const running = worker.run();
  const connection = await Connection.connect({ address: shared.address });
  return {
    workflows: { client: new Client({ connection, namespace: shared.namespace }), taskQueue },
    async stop() {
      await worker.shutdown();
      await running.catch(() => undefined);
      await connection.close();
    },
  };
}
