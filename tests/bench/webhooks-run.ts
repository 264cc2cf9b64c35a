import { runMain } from './report';
import { startBenchServer } from './server';
import { measureWebhookDelivery } from './webhooks';

/**
 * `npx tsx tests/bench/webhooks-run.ts`: only the webhook measurement of `npm run bench` (webhookDeliveryP99Ms), on
 * an embedded Postgres of its own. Prints one line of JSON.
 *
 *   WEBHOOK_SECONDS  how long the load runs (default 30)
 *   WEBHOOK_RATE     events a second (default 200)
 */

async function main(): Promise<void> {
  const bench = await startBenchServer();
  try {
    const figures = await measureWebhookDelivery(bench, {
      seconds: Number(process.env.WEBHOOK_SECONDS ?? 30),
      eventsPerSec: Number(process.env.WEBHOOK_RATE ?? 200),
    });
    process.stdout.write(`${JSON.stringify(figures)}\n`);
  } finally {
    await bench.stop();
  }
}

runMain(main);
