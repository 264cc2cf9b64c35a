import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * The Temporal worker runs in a process of its own, started and stopped by `npm start` (api/main.ts): its native
 * core, its workflow isolates and the activities' code then weigh on that process, not on the API's. The two talk
 * over the IPC channel `fork` opens: the supervisor hands the worker where to connect (never on the command line: a
 * database URL carries a password), the worker answers when it runs and forwards its log lines, and a stop message
 * ends it. Ctrl-C reaches the whole process group: the worker ignores signals and waits for its supervisor, which
 * stops it after the API and before Temporal and the database.
 */

export const WORKER_ENTRY = fileURLToPath(new URL('../../workflows/worker-main.ts', import.meta.url));

/** How long a worker may take to stop (running activities see cancellation) before it is killed. */
const STOP_TIMEOUT_MS = 30_000;

export type WorkerLogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error';

/** Supervisor → worker. */
export type ToWorker =
  | { kind: 'start'; databaseUrl: string; temporalAddress: string; bundlePath: string }
  | { kind: 'stop' };

/** Worker → supervisor. */
export type FromWorker =
  | { kind: 'ready' }
  | { kind: 'failed'; message: string }
  | { kind: 'log'; level: WorkerLogLevel; component: string; message: string; meta: object };

export interface WorkerProcess {
  pid: number;
  /** Resolves when the worker process has exited, however it ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Asks the worker to stop and waits for its exit (killing it after STOP_TIMEOUT_MS). */
  stop(): Promise<void>;
}

/**
 * Forks the worker process, hands it the connections and resolves once its worker runs. Rejects with the worker's
 * own sentence when its start fails, or when it exits first. `onExit` is told of an exit that `stop()` did not ask
 * for, after the start.
 */
export async function startWorkerProcess(opts: {
  databaseUrl: string;
  temporalAddress: string;
  bundlePath: string;
  onLog(entry: Extract<FromWorker, { kind: 'log' }>): void;
  onExit(code: number | null, signal: NodeJS.Signals | null): void;
}): Promise<WorkerProcess> {
  const child: ChildProcess = fork(WORKER_ENTRY, [], {
    // The API's own node flags (tsx's loader among them) serve the worker too.
    execArgv: process.execArgv,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Structured clone: the errors in log lines arrive as errors, with their stacks.
    serialization: 'advanced',
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  let stopping = false;
  let ready = false;
  child.on('message', (message: FromWorker) => {
    if (message.kind === 'log') opts.onLog(message);
  });
  const send = (message: ToWorker) => {
    if (child.connected) child.send(message);
  };

  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') resolve();
      if (message.kind === 'failed') reject(new Error(message.message));
    });
    child.once('error', reject);
    void exited.then(({ code, signal }) =>
      reject(new Error(`The Temporal worker process exited during start-up (${exitText(code, signal)}).`)),
    );
    send({
      kind: 'start',
      databaseUrl: opts.databaseUrl,
      temporalAddress: opts.temporalAddress,
      bundlePath: opts.bundlePath,
    });
  }).catch(async (error: unknown) => {
    child.kill('SIGKILL');
    await exited;
    throw error;
  });
  ready = true;
  void exited.then(({ code, signal }) => {
    if (ready && !stopping) opts.onExit(code, signal);
  });

  return {
    pid: child.pid!,
    exited,
    async stop() {
      stopping = true;
      send({ kind: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

export function exitText(code: number | null, signal: NodeJS.Signals | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}
