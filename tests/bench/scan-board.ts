import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { cpuSampler, formatShares, withChild } from './cpu';
import { leastDisturbed } from './load';
import { formatLegs, measureScanToBoard, seedOrderList } from './orders';
import { log, runMain } from './report';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/scan-board.ts`: only the scan → board measurement of `npm run bench` (scanToBoardP99Ms), on
 * an embedded Postgres of its own: the same function, schedule and attempt rule as the full bench, in about a
 * minute instead of the whole bench. Prints one line of JSON per run.
 *
 *   SCAN_RUNS        how many measurements (default 1), each on a fresh account of the same server
 *   SCAN_RATE        scans a second (default 200, the rate; the full bench also runs 500, the architecture's)
 *   SCAN_ORDER_LIST  when 1, first seed the million orders of the order-list section, as the full bench does just
 *                    before this measurement (about 40 s)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  const cpu = cpuSampler(bench.dir);
  try {
    await bench.server.createDatabase('kedai_bench');
    const pool = createPool(bench.server.url('kedai_bench'), 4);
    const db = createDb(pool);
    try {
      await migrateToLatest(db);
      if (process.env.SCAN_ORDER_LIST === '1') {
        const seed = await seedOrderList(db);
        log(`order list: ${seed.orders} orders seeded in ${seed.seconds.toFixed(1)} s`);
      }
    } finally {
      await db.destroy();
    }
    const runs = Number(process.env.SCAN_RUNS ?? 1);
    const rate = process.env.SCAN_RATE ? Number(process.env.SCAN_RATE) : undefined;
    let attempt = 0;
    for (let run = 0; run < runs; run++) {
      const result = await leastDisturbed('scan to board', async () => {
        const before = cpu.sample();
        const measured = await measureScanToBoard(bench.server.url('kedai_bench'), attempt++, rate);
        return { ...measured, cpu: withChild(cpu.split(before), measured.projectorCpuSeconds) };
      });
      log(
        `scan to board: p50 ${result.medianMs.toFixed(1)} ms, p95 ${result.p95Ms.toFixed(1)} ms, ` +
          `p99 ${result.p99Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms over ${result.count} scans at ` +
          `${result.scansPerSec.toFixed(0)}/s; command p50 ${result.command.medianMs.toFixed(1)} ms, ` +
          `p99 ${result.command.p99Ms.toFixed(1)} ms; ${formatLegs(result.legs)}; ${result.attempts} attempt(s); ` +
          formatShares(result.cpu),
      );
      process.stdout.write(
        `${JSON.stringify({
          scanToBoardP99Ms: Number(result.p99Ms.toFixed(2)),
          scanToBoardP50Ms: Number(result.medianMs.toFixed(2)),
          commandP99Ms: Number(result.command.p99Ms.toFixed(2)),
          commandP50Ms: Number(result.command.medianMs.toFixed(2)),
          ...result.legs,
        })}\n`,
      );
    }
  } finally {
    await bench.stop();
  }
}

runMain(main);
