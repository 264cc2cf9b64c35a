import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { sql } from 'kysely';
import { cpuSampler } from './cpu';
import { benchRegistry } from './fixtures';
import { countEvents, measureCatchUpReads, seedLog } from './log';
import { runMain } from './report';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/catch-up-run.ts`: only the catch-up read and its ratio to plain pg (catchUpVsRawRead), on an
 * embedded Postgres of its own, as `npm run bench` measures them. One line of JSON on stdout.
 *
 *   CATCH_UP_EVENTS  events in the log (default 300,000: the bench's)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    await bench.server.createDatabase('kedai_catch_up');
    const pool = createPool(bench.server.url('kedai_catch_up'), 4);
    const db = createDb(pool);
    const store = new PostgresEventStore(pool, benchRegistry());
    try {
      await migrateToLatest(db);
      await seedLog(store, db, Number(process.env.CATCH_UP_EVENTS ?? 300_000));
      await sql`VACUUM (ANALYZE) es_events`.execute(db);
      const logSize = await countEvents(db);
      const reads = await measureCatchUpReads(store, pool, {
        logSize,
        pageSize: 10_000,
        passes: 3,
        cpu: cpuSampler(bench.dir),
      });
      process.stdout.write(
        `${JSON.stringify({
          catchUpReadPerSec: reads.ours.map((r) => Math.round(r.perSec)),
          rawReadPerSec: reads.raw.map((r) => Math.round(r.perSec)),
          catchUpVsRawRead: Number(reads.ratio.toFixed(3)),
        })}\n`,
      );
    } finally {
      await store.close();
      await db.destroy();
    }
  } finally {
    await bench.stop();
  }
}

runMain(main);
