import { createHash } from 'node:crypto';
import { type Config, config } from '@infra/config';
import { SANDBOX_DEFAULTS, SANDBOX_DEMO_PARTNER } from '@integrations/shopee';

/**
 * How this process reaches the marketplaces: Shopee's host and the partner Kedai signs as, the key that signs the
 * connect state, and how the order import retries. The API (connecting a store) and the worker's activities (the
 * import) both read it here. By default it comes from the configuration (infra/config: SHOPEE_PARTNER_ID/KEY,
 * SHOPEE_BASE_URL, else the local sandbox and its demo partner); `npm start` sets it once its sandbox is up, and
 * tests point it at their own sandbox.
 */

export interface ShopeeConnection {
  baseUrl: string;
  partnerId: number;
  partnerKey: string;
  /** Abort a Shopee call after this long (default 15 s). */
  timeoutMs?: number;
  /** The clock requests are signed with (default Date.now): a sandbox's clock in tests. */
  now?: () => number;
}

/** The import's activity retries (workflows/order-import.workflow.ts): backoff from `initialIntervalMs`, doubling. */
export interface ImportRetry {
  initialIntervalMs: number;
  maximumIntervalMs: number;
  maximumAttempts: number;
}

export interface StoreSettings {
  shopee: ShopeeConnection;
  /** Signs the `state` of a connect link (binds the marketplace's callback to the account that asked for it). */
  stateSecret: Buffer;
  /** The AES-256 key the stores' tokens are sealed with in `store_tokens` (absent: derived from stateSecret). */
  tokenKey?: Buffer;
  importRetry: ImportRetry;
}

export const DEFAULT_IMPORT_RETRY: ImportRetry = {
  initialIntervalMs: 2_000,
  maximumIntervalMs: 60_000,
  maximumAttempts: 5,
};

/** The settings a configuration gives (`sandboxUrl`: where the local sandbox listens, when SHOPEE_BASE_URL is unset). */
export function settingsFromConfig(cfg: Config, sandboxUrl?: string): StoreSettings {
  const partner = cfg.shopee.partner ?? SANDBOX_DEMO_PARTNER;
  const baseUrl =
    cfg.shopee.baseUrl ?? sandboxUrl ?? `http://${SANDBOX_DEFAULTS.host}:${SANDBOX_DEFAULTS.port}`;
  return {
    shopee: { baseUrl, partnerId: partner.partnerId, partnerKey: partner.partnerKey },
    stateSecret: createHash('sha256')
      .update(`kedai store connect state\0${partner.partnerKey}\0${cfg.auth.clientSecret}`)
      .digest(),
    tokenKey:
      cfg.shopee.tokenKey ??
      createHash('sha256')
        .update(`kedai store tokens\0${partner.partnerKey}\0${cfg.auth.clientSecret}`)
        .digest(),
    importRetry: DEFAULT_IMPORT_RETRY,
  };
}

/** The key the stores' tokens are sealed with. */
export function tokenKeyOf(settings: StoreSettings): Buffer {
  return (
    settings.tokenKey ??
    createHash('sha256').update('kedai store tokens\0').update(settings.stateSecret).digest()
  );
}

let current: StoreSettings | undefined;

/** The process's store settings (from the configuration unless set). */
export function storeSettings(): StoreSettings {
  current ??= settingsFromConfig(config());
  return current;
}

/** Sets the process's store settings (npm start once its sandbox listens; tests); returns the previous ones. */
export function setStoreSettings(settings: StoreSettings): StoreSettings | undefined {
  const previous = current;
  current = settings;
  return previous;
}
