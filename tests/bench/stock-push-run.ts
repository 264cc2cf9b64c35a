import { runMain } from './report';
import { startBenchServer } from './server';
import { measureStockToChannel, simulateOversold } from './stock-push';

/**
 * `npx tsx tests/bench/stock-push-run.ts`: only the stock push measurement of `npm run bench` (stockToChannelP99Ms,
 * oversoldUnits, oversoldUnitsPolling), on an embedded Postgres of its own: the same function and load as the full
 * bench, in a few minutes instead of the whole bench. Prints one line of JSON per run.
 *
 *   PUSH_RUNS     how many measurements (default 1), each on a fresh database of the same server
 *   PUSH_SECONDS  how long the load runs (default 30, the full bench's)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    const runs = Number(process.env.PUSH_RUNS ?? 1);
    for (let run = 0; run < runs; run++) {
      const figures = await measureStockToChannel(bench, {
        seconds: Number(process.env.PUSH_SECONDS ?? 30),
        database: `kedai_push_${run}`,
      });
      process.stdout.write(
        `${JSON.stringify({
          ...figures,
          oversoldUnits: simulateOversold({ syncDelayMs: figures.stockToChannelP99Ms }),
          oversoldUnitsPolling: simulateOversold({ pollEveryMs: 15 * 60 * 1000 }),
        })}\n`,
      );
    }
  } finally {
    await bench.stop();
  }
}

runMain(main);
