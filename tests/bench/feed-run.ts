import { measureFeedRead } from './feed';
import { runMain } from './report';
import { startBenchServer } from './server';

/**
 * `npx tsx tests/bench/feed-run.ts`: only the feed measurement (feedReadPerSec) on an embedded Postgres of its own.
 * Prints one line of JSON.
 *
 *   FEED_EVENTS  the seller's events in the log (default 1,000,000, the budget's)
 *   FEED_PAGE    events per page (default 5,000, the feed's largest)
 */
async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    const figures = await measureFeedRead(bench, {
      events: Number(process.env.FEED_EVENTS ?? 1_000_000),
      pageSize: Number(process.env.FEED_PAGE ?? 5000),
    });
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await bench.stop();
  }
}

runMain(main);
