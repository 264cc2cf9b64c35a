import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  bundleWorkflowCode,
  DefaultLogger,
  NativeConnection,
  Worker,
  type WorkflowBundleWithSourceMap,
} from '@temporalio/worker';
import { unreachable } from './client';

export { connectTemporal } from './client';

/**
 * The Temporal runtime of Kedai: a client for starting and querying workflows (client.ts), and a worker that runs the
 * workflows of workflows/index.ts with the activities it is given.
 */

const WORKFLOWS_PATH = fileURLToPath(new URL('../../workflows/index.ts', import.meta.url));

// Webpack takes seconds per bundle; every worker in a process runs the same workflow code, so build it once.
let bundle: Promise<WorkflowBundleWithSourceMap> | undefined;

function workflowBundle(): Promise<WorkflowBundleWithSourceMap> {
  bundle ??= bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: new DefaultLogger('WARN'),
  }).catch((error: unknown) => {
    // A failed build (a syntax error being fixed, say) should not poison every later attempt.
    bundle = undefined;
    throw error;
  });
  return bundle;
}

/** Bundles the workflow code into a file a worker can load with `bundlePath`. */
export async function writeWorkflowBundle(file: string): Promise<void> {
  const { code } = await workflowBundle();
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, code);
}

/**
 * Creates a worker for the task queue. `run()` resolves when the worker has stopped; `shutdown()` stops it (letting
 * running activities see cancellation), waits for that, and closes its connection. Both may be called at any time.
 */
export async function createKedaiWorker(opts: {
  address: string;
  namespace: string;
  taskQueue: string;
  activities: object;
  /** Workflow code bundled beforehand (`writeWorkflowBundle`): the test run bundles once for all its files. */
  bundlePath?: string;
}): Promise<{ worker: Worker; run(): Promise<void>; shutdown(): Promise<void> }> {
  const code = opts.bundlePath ? { codePath: opts.bundlePath } : await workflowBundle();
  let connection: NativeConnection;
  try {
    connection = await NativeConnection.connect({ address: opts.address });
  } catch (error) {
    throw unreachable(opts.address, error);
  }
  let worker: Worker;
  try {
    worker = await Worker.create({
      connection,
      namespace: opts.namespace,
      taskQueue: opts.taskQueue,
      activities: opts.activities,
      workflowBundle: code,
    });
  } catch (error) {
    await connection.close().catch(() => undefined);
    throw error;
  }

  let running: Promise<void> | undefined;
  let stopping: Promise<void> | undefined;
  const run = (): Promise<void> => {
    running ??= worker.run();
    return running;
  };
  const shutdown = (): Promise<void> => {
    stopping ??= (async () => {
      // A worker that never ran still holds the connection; running it briefly is how the SDK lets go of it.
      if (!running) {
        running = worker.runUntil(Promise.resolve());
      } else if (worker.getState() === 'RUNNING') {
        worker.shutdown();
      }
      await running.catch(() => undefined);
      await connection.close();
    })();
    return stopping;
  };
  return { worker, run, shutdown };
}
