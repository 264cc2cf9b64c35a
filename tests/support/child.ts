import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

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
