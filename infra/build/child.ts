import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './source-hash';

const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const CLI = path.join(ROOT, 'infra', 'build', 'cli.ts');

/**
 * Runs a build step (`infra/build/cli.ts <args>`) in a process of its own and waits for it. Webpack and Vite hold
 * a few hundred megabytes while they build and node keeps most of it after: run in the API's process, a build at
 * start-up would stay in the API's memory for as long as it runs.
 */
export function runBuildStep(args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [CLI, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else
        reject(
          new Error(`${args[0]} build failed (${signal ?? `exit ${code}`}): ${stderr.trim() || 'no output'}`),
        );
    });
  });
}
