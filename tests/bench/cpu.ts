import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the CPU went during a phase, on Linux: this Node process, our Postgres (postmaster and its children) and
 * everything else on the machine. A 2-core machine shared with other work gives noisy figures; the "others" share
 * says how noisy. Elsewhere the Postgres and machine parts read as unknown.
 */
export interface CpuSample {
  at: number;
  node: number;
  postgres: number | undefined;
  machineBusy: number | undefined;
}

const TICKS_PER_SECOND = 100;

export interface CpuSplit {
  wall: number;
  /** CPU seconds spent in the phase. */
  node: number;
  postgres: number | undefined;
  others: number | undefined;
  cores: number;
}

export interface CpuSampler {
  sample(): CpuSample;
  split(from: CpuSample): CpuSplit;
}

export function cpuSampler(dataDir: string): CpuSampler {
  const postmasterPid = readPostmasterPid(dataDir);
  const cores = availableCores();
  const sample = (): CpuSample => {
    const usage = process.cpuUsage();
    return {
      at: performance.now(),
      node: (usage.user + usage.system) / 1e6,
      postgres: postmasterPid === undefined ? undefined : postgresSeconds(postmasterPid),
      machineBusy: machineBusySeconds(),
    };
  };
  return {
    sample,
    split(from) {
      const to = sample();
      const node = to.node - from.node;
      const postgres =
        to.postgres !== undefined && from.postgres !== undefined ? to.postgres - from.postgres : undefined;
      const machine =
        to.machineBusy !== undefined && from.machineBusy !== undefined
          ? to.machineBusy - from.machineBusy
          : undefined;
      return {
        wall: (to.at - from.at) / 1000,
        node,
        postgres,
        others:
          machine === undefined || postgres === undefined
            ? undefined
            : Math.max(0, machine - node - postgres),
        cores,
      };
    },
  };
}

/** The split with a child process's CPU seconds counted as this process's (Node) rather than the others'. */
export function withChild(split: CpuSplit, childSeconds: number): CpuSplit {
  return {
    ...split,
    node: split.node + childSeconds,
    others: split.others === undefined ? undefined : Math.max(0, split.others - childSeconds),
  };
}

/** Adds up the splits of several phases. */
export function sumSplits(splits: readonly CpuSplit[]): CpuSplit {
  const add = (pick: (s: CpuSplit) => number | undefined) =>
    splits.some((s) => pick(s) === undefined) ? undefined : splits.reduce((sum, s) => sum + pick(s)!, 0);
  return {
    wall: add((s) => s.wall)!,
    node: add((s) => s.node)!,
    postgres: add((s) => s.postgres),
    others: add((s) => s.others),
    cores: splits[0]?.cores ?? 0,
  };
}

/** "node 52% pg 107% others 6% of 200%": each part as a share of one core over the wall time. */
export function formatShares(split: CpuSplit): string {
  const pct = (seconds: number | undefined) =>
    seconds === undefined ? '?' : `${Math.round((seconds / split.wall) * 100)}%`;
  return `CPU node ${pct(split.node)} pg ${pct(split.postgres)} others ${pct(split.others)} of ${split.cores * 100}%`;
}

/** "node 110 + pg 205 µs/op": CPU time per operation. */
export function formatPerOperation(split: CpuSplit, operations: number): string {
  const us = (seconds: number | undefined) =>
    seconds === undefined ? '?' : String(Math.round((seconds / operations) * 1e6));
  return `node ${us(split.node)} + pg ${us(split.postgres)} µs CPU/op`;
}

function availableCores(): number {
  try {
    return readFileSync('/proc/stat', 'utf8')
      .split('\n')
      .filter((l) => /^cpu\d+ /.test(l)).length;
  } catch {
    return 0;
  }
}

function readPostmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds of a process, from /proc/<pid>/stat, and its ppid. `exited` adds the time of its children that have
 * exited (cutime, cstime), so a backend that ends between two samples moves from the live sum into its parent's.
 */
function processTimes(pid: number): { ppid: number; seconds: number; exited: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14)
    return {
      ppid: Number(fields[1]),
      seconds: (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND,
      exited: (Number(fields[13]) + Number(fields[14])) / TICKS_PER_SECOND,
    };
  } catch {
    return undefined;
  }
}

/** The postmaster, its live children (backends, walwriter, checkpointer...) and the children that have exited. */
function postgresSeconds(postmasterPid: number): number | undefined {
  const root = processTimes(postmasterPid);
  if (!root) return undefined;
  let total = root.seconds + root.exited;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const times = processTimes(Number(entry));
    if (times?.ppid === postmasterPid) total += times.seconds;
  }
  return total;
}

function machineBusySeconds(): number | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    const idle = fields[3]! + fields[4]!;
    return (total - idle) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
