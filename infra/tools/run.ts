import { spawn } from 'node:child_process';

/**
 * Runs a command to its end and answers its exit code with the last `keep` lines it wrote (stdout and stderr
 * together): what the tool installers (the Temporal CLI, Schemathesis) and the Schemathesis test quote on failure.
 */
export function run(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; keep?: number } = {},
): Promise<{ code: number | null; output: string[] }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = options.keep ?? 50;
    let partial = '';
    const collect = (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      output.push(...lines);
      if (output.length > keep) output.splice(0, output.length - keep);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => {
      if (partial) output.push(partial);
      resolve({ code, output });
    });
  });
}
