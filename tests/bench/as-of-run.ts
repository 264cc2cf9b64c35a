import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { measureAsOfValuation, seedAsOfValuation } from './as-of';
import { runMain } from './report';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/as-of-run.ts`: only the stock valuation as of a past date (asOfStockValuationMs), on an
 * embedded Postgres of its own, as `npm run bench` measures it. One line of JSON on stdout.
 *
 *   AS_OF_MASTER_CODES  master codes seeded (default 100,000: the bench's)
 *   AS_OF_RUNS          timed runs after a warm-up (default 5)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    await bench.server.createDatabase('kedai_as_of');
    const pool = createPool(bench.server.url('kedai_as_of'), 4);
    const db = createDb(pool);
    try {
      await migrateToLatest(db);
      const seed = await seedAsOfValuation(db, Number(process.env.AS_OF_MASTER_CODES ?? 100_000));
      const result = await measureAsOfValuation(db, Number(process.env.AS_OF_RUNS ?? 5));
      process.stdout.write(
        `${JSON.stringify({ ...result, seedSeconds: Number(seed.seconds.toFixed(1)) })}\n`,
      );
    } finally {
      await db.destroy();
    }
  } finally {
    await bench.stop();
  }
}

runMain(main);
