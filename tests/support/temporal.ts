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
