import path from 'node:path';
import type { Config } from '@infra/config';
import type { Database } from '@infra/db';
import { assertPortFree, PortInUseError } from '@infra/embedded/ports';
import {
  jsonFileStore,
  type SandboxSku,
  sandboxOptionsFromEnv,
  startShopeeSandbox,
} from '@integrations/shopee';
import type { Kysely } from 'kysely';
import { setStoreSettings, settingsFromConfig } from './settings';

/**
 * `npm start`'s Shopee: unless SHOPEE_SANDBOX=off or SHOPEE_BASE_URL names another host, a sandbox shop of ours
 * (integrations/shopee/sandbox) on SHOPEE_SANDBOX_PORT (8790), its shops and orders kept in DATA_DIR/shopee-sandbox,
 * selling the demo seller's master codes when there are any (on its first start), so a new user connects "Kedai
 * Demo Store" in the console and sees its orders arrive. This process's store settings then point at it. A port
 * already taken is taken to be a sandbox run on its own (`integrations/shopee/sandbox/main.ts`): Kedai uses it.
 */

const DEMO_TENANT_ID = 'demo';
const MAX_SKUS = 30;

/** The demo seller's standard master codes, as the sandbox's SKUs (none: the sandbox's own). */
async function demoSkus(db: Kysely<Database>): Promise<SandboxSku[] | undefined> {
  const rows = await db
    .selectFrom('master_codes')
    .select(['code', 'name', 'unit_price', 'weight_kg'])
    .where('tenant_id', '=', DEMO_TENANT_ID)
    .where('type', '=', 'standard')
    .where('status', '=', 'active')
    .orderBy('created_at')
    .limit(MAX_SKUS)
    .execute();
  if (rows.length === 0) return undefined;
  return rows.map((row) => ({
    sku: row.code,
    name: row.name,
    ...(Number(row.unit_price) > 0 ? { price: Number(row.unit_price) } : {}),
    ...(Number(row.weight_kg) > 0 ? { weight: Number(row.weight_kg) } : {}),
  }));
}

export async function startStoreSandbox(
  cfg: Config,
  db: Kysely<Database>,
  print: (line: string) => void = (line) => console.log(line),
): Promise<{ name: string; stop(): Promise<void> }> {
  const none = { name: 'the Shopee sandbox', stop: async () => undefined };
  if (!cfg.shopee.sandbox || cfg.shopee.baseUrl) {
    setStoreSettings(settingsFromConfig(cfg));
    return none;
  }
  const { options } = sandboxOptionsFromEnv(process.env);
  const dataDir = process.env.SHOPEE_SANDBOX_DATA_DIR ?? path.join(cfg.dataDir, 'shopee-sandbox');
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  try {
    if (port) await assertPortFree(port, 'SHOPEE_SANDBOX_PORT', host);
  } catch (error) {
    if (!(error instanceof PortInUseError)) throw error;
    const url = options.publicUrl ?? `http://${host}:${port}`;
    setStoreSettings(settingsFromConfig(cfg, url));
    print(`Shopee sandbox: port ${port} is taken; using the sandbox that answers at ${url}`);
    return none;
  }
  const sandbox = await startShopeeSandbox({
    ...options,
    store: jsonFileStore(dataDir),
    skus: await demoSkus(db),
    log: (line) => console.error(line),
  });
  setStoreSettings(settingsFromConfig(cfg, sandbox.url));
  const shops = sandbox.shops.map((shop) => `"${shop.name}" (${shop.orderCount} orders)`).join(', ');
  print(
    `Shopee sandbox: ${sandbox.url}  shop ${shops}; connect it under Settings → Store integration (data in ${dataDir})`,
  );
  return { name: 'the Shopee sandbox', stop: () => sandbox.stop() };
}
