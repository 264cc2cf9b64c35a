import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SandboxPartner, ShopeeSandboxOptions } from './server';
import { jsonFileStore, memoryStore } from './state';

/**
 * How the sandbox runs on its own (main.ts) and under `npm start`: settings from the environment, overridden by
 * command-line flags. With none, it listens on 127.0.0.1:8790, keeps its data in .data/shopee-sandbox, knows the
 * demo partner below, and makes about 30 orders an hour for its shop.
 */

/** The partner Kedai uses against its own sandbox unless SHOPEE_PARTNER_ID / SHOPEE_PARTNER_KEY say otherwise. */
export const SANDBOX_DEMO_PARTNER: SandboxPartner = {
  partnerId: 2_000_001,
  partnerKey: 'shpk4b656461692053686f706565207361616e64626f782064656d6f206b6579',
  name: 'Kedai',
};

export const SANDBOX_DEFAULTS = {
  port: 8790,
  host: '127.0.0.1',
  /** Orders per hour per shop. */
  orderRate: 30,
  dataDir: path.join('.data', 'shopee-sandbox'),
  seed: 'kedai',
} as const;

const HELP = `Shopee Open Platform v2 sandbox

  --port <n>          SHOPEE_SANDBOX_PORT      (default ${SANDBOX_DEFAULTS.port})
  --host <addr>       SHOPEE_SANDBOX_HOST      (default ${SANDBOX_DEFAULTS.host})
  --rate <n>          SHOPEE_SANDBOX_RATE      new orders per hour per shop (default ${SANDBOX_DEFAULTS.orderRate})
  --data-dir <dir>    SHOPEE_SANDBOX_DATA_DIR  where shops and orders are kept (default ${SANDBOX_DEFAULTS.dataDir})
  --memory            keep nothing between runs
  --seed <text>       SHOPEE_SANDBOX_SEED      (default ${SANDBOX_DEFAULTS.seed})
  --partner-id <n>    SHOPEE_PARTNER_ID        (default ${SANDBOX_DEMO_PARTNER.partnerId})
  --partner-key <k>   SHOPEE_PARTNER_KEY
  --public-url <url>  SHOPEE_SANDBOX_URL       the address browsers and clients use
`;

export class SandboxConfigError extends Error {
  override name = 'SandboxConfigError';
}

function whole(value: string, setting: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new SandboxConfigError(`${setting} must be a whole number ≥ ${min}, not "${value}"`);
  return Number(value);
}

function positive(value: string, setting: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0)
    throw new SandboxConfigError(`${setting} must be a number ≥ 0, not "${value}"`);
  return number;
}

/** The options for startShopeeSandbox from the environment and flags; `help` when --help was asked for. */
export function sandboxOptionsFromEnv(
  env: NodeJS.ProcessEnv,
  argv: readonly string[] = [],
): { options: ShopeeSandboxOptions; dataDir: string | null; help?: string } {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      rate: { type: 'string' },
      'data-dir': { type: 'string' },
      memory: { type: 'boolean' },
      seed: { type: 'string' },
      'partner-id': { type: 'string' },
      'partner-key': { type: 'string' },
      'public-url': { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  const setting = (flag: string | undefined, name: string) => flag ?? env[name];
  const port = setting(values.port, 'SHOPEE_SANDBOX_PORT');
  const rate = setting(values.rate, 'SHOPEE_SANDBOX_RATE');
  const partnerId = setting(values['partner-id'], 'SHOPEE_PARTNER_ID');
  const partnerKey = setting(values['partner-key'], 'SHOPEE_PARTNER_KEY');
  if ((partnerId === undefined) !== (partnerKey === undefined))
    throw new SandboxConfigError('SHOPEE_PARTNER_ID and SHOPEE_PARTNER_KEY go together');
  const dataDir = values.memory
    ? null
    : path.resolve(setting(values['data-dir'], 'SHOPEE_SANDBOX_DATA_DIR') ?? SANDBOX_DEFAULTS.dataDir);
  const partner: SandboxPartner =
    partnerId !== undefined && partnerKey !== undefined
      ? { partnerId: whole(partnerId, 'SHOPEE_PARTNER_ID', 1), partnerKey, name: 'Kedai' }
      : SANDBOX_DEMO_PARTNER;
  return {
    dataDir,
    help: values.help ? HELP : undefined,
    options: {
      port: port === undefined ? SANDBOX_DEFAULTS.port : whole(port, 'SHOPEE_SANDBOX_PORT', 0),
      host: setting(values.host, 'SHOPEE_SANDBOX_HOST') ?? SANDBOX_DEFAULTS.host,
      orderRate: rate === undefined ? SANDBOX_DEFAULTS.orderRate : positive(rate, 'SHOPEE_SANDBOX_RATE'),
      seed: setting(values.seed, 'SHOPEE_SANDBOX_SEED') ?? SANDBOX_DEFAULTS.seed,
      partners: [partner],
      store: dataDir ? jsonFileStore(dataDir) : memoryStore(),
      publicUrl: setting(values['public-url'], 'SHOPEE_SANDBOX_URL'),
    },
  };
}
