import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { sharedTemporal } from './temporal';
import { waitFor } from './wait';

export interface Child {
  process: ChildProcess;
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * Runs a TypeScript entry point of the project in ONE node process (`node --import tsx`), capturing its output.
 * Not the tsx binary: it forks a second node process, and a SIGKILL would leave that one running.
 */
export function spawnTsx(entry: string, args: string[], env: NodeJS.ProcessEnv): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', path.resolve(entry), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
  });
  return {
    process: child,
    output: () => output,
    exited,
    kill(signal = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

/**
 * A Kedai worker in a process of its own (tests/support/worker-child.ts) with `env` (its database and Temporal
 * server), added to `children` for the test to kill; resolves once it polls, fails with its output if it does not.
 */
export async function startWorkerChild(env: NodeJS.ProcessEnv, children: Child[]): Promise<Child> {
  const child = spawnTsx('tests/support/worker-child.ts', [], env);
  children.push(child);
  let exitedWith: number | string | undefined;
  void child.exited.then((code) => {
    exitedWith = code;
  });
  await waitFor(
    () => {
      if (exitedWith !== undefined) {
        throw new Error(`the worker exited (${exitedWith}) before it was ready:\n${child.output()}`);
      }
      return child.output().includes('worker ready');
    },
    { timeoutMs: 60_000, what: 'the worker to be ready' },
  ).catch((error: unknown) => {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${child.output()}`);
  });
  return child;
}

/**
 * A worker process on the run's shared Temporal dev server (and its workflow bundle), with `databaseUrl` and
 * `taskQueue`; `extra` adds to its environment (a marketplace's address, say).
 */
export function startSharedWorkerChild(
  databaseUrl: string,
  taskQueue: string,
  children: Child[],
  extra: NodeJS.ProcessEnv = {},
): Promise<Child> {
  const shared = sharedTemporal();
  return startWorkerChild(
    {
      DATABASE_URL: databaseUrl,
      EVENTSTORE_URL: '',
      TEMPORAL_ADDRESS: shared.address,
      TEMPORAL_NAMESPACE: shared.namespace,
      TEMPORAL_TASK_QUEUE: taskQueue,
      KEDAI_WORKFLOW_BUNDLE: shared.bundlePath,
      ...extra,
    },
    children,
  );
}
