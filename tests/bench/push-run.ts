import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { formatLegs, measureScanToBoard } from './orders';
import { log } from './report';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/push-run.ts`: only command → read model → websocket push (commandToPushP99Ms), on an
 * embedded Postgres of its own, as `npm run bench` measures it. One line of JSON on stdout.
 *
 *   PUSH_RATE  commands per second (default 500: the budget's)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    await bench.server.createDatabase('kedai_push');
    const url = bench.server.url('kedai_push');
    const db = createDb(createPool(url, 2));
    await migrateToLatest(db);
    await db.destroy();
    const result = await measureScanToBoard(url, 0, Number(process.env.PUSH_RATE ?? 500));
    log(
      `command to push: p50 ${result.medianMs.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms over ${result.count} ` +
        `commands at ${result.scansPerSec.toFixed(0)}/s (command p99 ${result.command.p99Ms.toFixed(1)} ms; ${formatLegs(result.legs)})`,
    );
    process.stdout.write(
      `${JSON.stringify({ commandToPushP99Ms: Number(result.p99Ms.toFixed(2)), commandP99Ms: Number(result.command.p99Ms.toFixed(2)) })}\n`,
    );
  } finally {
    await bench.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
