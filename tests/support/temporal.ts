import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';

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
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: TEMPORAL_CLI },
      namespace,
      ip: '127.0.0.1',
      log: { format: 'pretty', level: 'error' },
    },
  }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `The Temporal dev server (${TEMPORAL_CLI}) did not start; run npm run setup to build it (${reason}).`,
    );
  });
  return { env, address: env.address, namespace, stop: () => env.teardown() };
}
