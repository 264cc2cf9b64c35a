import { performance } from 'node:perf_hooks';
import { memoryStore, SANDBOX_DEMO_PARTNER, startShopeeSandbox } from '@integrations/shopee';

/**
 * The stock push measurement's marketplace (stock-push.ts), in a process of its own as Shopee is on machines of its
 * own: its CPU is not taken from the Kedai process it measures. Forked with BENCH_SANDBOX (JSON: the shops' names
 * and SKUs), it sends
 *
 *   { kind: 'ready', url, shops: [{ shopId, name, tokens }] }   once it listens
 *   { kind: 'stock', sets: [[shopId, itemId, stock, at]…] }      the quantities update_stock set, every 10 ms
 *
 * `at` is when the sandbox set the quantity, in milliseconds on the clock both processes share
 * (performance.timeOrigin + performance.now()), so that the batching of the reports delays no measurement.
 */

export type SandboxToBench =
  | {
      kind: 'ready';
      url: string;
      shops: {
        shopId: number;
        name: string;
        tokens: { accessToken: string; refreshToken: string; expiresAt: number };
      }[];
    }
  | { kind: 'stock'; sets: [shopId: number, itemId: number, stock: number, at: number][] };

const config = process.env.BENCH_SANDBOX;
if (!config || !process.send) throw new Error('sandbox-process.ts is forked by the bench with BENCH_SANDBOX');
const { shops } = JSON.parse(config) as { shops: { name: string; skus: string[] }[] };
const send = (message: SandboxToBench) => process.send!(message);

let sets: [number, number, number, number][] = [];
const sandbox = await startShopeeSandbox({
  partners: [SANDBOX_DEMO_PARTNER],
  store: memoryStore(),
  seed: 'bench-push',
  tickIntervalMs: 0,
  orderRate: 0,
  shops,
  onStockSet: ({ shopId, itemId, stock }) =>
    sets.push([shopId, itemId, stock, performance.timeOrigin + performance.now()]),
});
setInterval(() => {
  if (sets.length === 0) return;
  send({ kind: 'stock', sets });
  sets = [];
}, 10);
send({
  kind: 'ready',
  url: sandbox.url,
  shops: sandbox.shops.map((shop) => ({
    shopId: shop.shopId,
    name: shop.name,
    tokens: sandbox.issueTokens(SANDBOX_DEMO_PARTNER.partnerId, shop.shopId),
  })),
});
// The bench ends it with SIGTERM: exit at once (a --cpu-prof profile is written on a normal exit).
process.on('SIGTERM', () => process.exit(0));
