import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { log, runMain } from './report';
import { measureReports, seedReports } from './reports';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/reports-run.ts`: only the reports measurement of `npm run bench` (reportP95Ms), on an
 * embedded Postgres of its own. Prints one line of JSON.
 *
 *   REPORTS_ORDERS  how many orders' worth of daily sales to seed (default 1,000,000, the bench's)
 *   REPORTS_OPENS   how many reports to open (default 200)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    await bench.server.createDatabase('kedai_reports');
    const db = createDb(createPool(bench.server.url('kedai_reports'), 4));
    try {
      await migrateToLatest(db);
      const seed = await seedReports(db, Number(process.env.REPORTS_ORDERS ?? 1_000_000));
      log(
        `reports: ${seed.orders} orders as ${seed.dayRows} day rows and ${seed.skuRows} SKU day rows, ` +
          `seeded in ${seed.seconds.toFixed(1)} s`,
      );
      const figures = await measureReports(db, Number(process.env.REPORTS_OPENS ?? 200));
      process.stdout.write(`${JSON.stringify({ ...seed, ...figures })}\n`);
    } finally {
      await db.destroy();
    }
  } finally {
    await bench.stop();
  }
}

runMain(main);
