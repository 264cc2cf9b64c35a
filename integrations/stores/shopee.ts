import type { Database } from '@infra/db';
import { ChannelError, type ChannelErrorKind } from '@integrations/channel/port';
import {
  ShopeeAuthError,
  ShopeeClient,
  ShopeeError,
  ShopeeNetworkError,
  ShopeeProtocolError,
  ShopeeRateLimitError,
  ShopeeRequestError,
  ShopeeServerError,
  ShopeeSignatureError,
  ShopeeTimeoutError,
  type ShopeeTokenStore,
} from '@integrations/shopee';
import type { Kysely } from 'kysely';
import type { Store, StoreErrorKind } from './registry';
import { type ShopeeConnection, storeSettings } from './settings';
import { OrderTranslationError } from './shopee-orders';
import { StoreTokenStore } from './tokens';

/** The Shopee client of this process's connection, with the given tokens (none: only the public calls work). */
export function shopeeClient(connection: ShopeeConnection, tokens?: ShopeeTokenStore): ShopeeClient {
  return new ShopeeClient({
    baseUrl: connection.baseUrl,
    partnerId: connection.partnerId,
    partnerKey: connection.partnerKey,
    tokens,
    ...(connection.timeoutMs !== undefined ? { timeoutMs: connection.timeoutMs } : {}),
    ...(connection.now ? { now: connection.now } : {}),
  });
}

/** A client acting for one store: its own tokens, refreshed under the store's advisory lock. */
export function shopeeClientForStore(
  db: Kysely<Database>,
  store: Pick<Store, 'id' | 'tenantId' | 'shopId'>,
  connection: ShopeeConnection = storeSettings().shopee,
): ShopeeClient {
  return shopeeClient(
    connection,
    new StoreTokenStore(db, { tenantId: store.tenantId, storeId: store.id, shopId: store.shopId }),
  );
}

export interface ClassifiedError {
  kind: StoreErrorKind;
  message: string;
  /** Whether the same call may succeed later with nothing changed (then the import retries it with backoff). */
  retryable: boolean;
  /** The platform's Retry-After, when it gave one. */
  retryAfterMs?: number;
}

/** A channel's failure as the store shows it: the same kinds, an unknown id or a call it lacks a refused request. */
const STORE_KIND_OF: Record<ChannelErrorKind, StoreErrorKind> = {
  signature: 'signature',
  authorization: 'authorization',
  rate_limit: 'rate_limit',
  server: 'server',
  timeout: 'timeout',
  network: 'network',
  request: 'request',
  protocol: 'protocol',
  not_found: 'request',
  unsupported: 'request',
};

/**
 * What a failure of the import (a ChannelError from the port) or of connecting (the Shopee client's own errors)
 * means for the store: its kind, its detail, and whether to try again.
 */
export function classifyStoreError(error: unknown): ClassifiedError {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ChannelError) {
    const { retryAfterMs } = error.options;
    return {
      kind: STORE_KIND_OF[error.kind],
      message,
      retryable: error.retryable,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
  if (error instanceof ShopeeError) {
    const kind: StoreErrorKind =
      error instanceof ShopeeSignatureError
        ? 'signature'
        : error instanceof ShopeeAuthError
          ? 'authorization'
          : error instanceof ShopeeRateLimitError
            ? 'rate_limit'
            : error instanceof ShopeeServerError
              ? 'server'
              : error instanceof ShopeeTimeoutError
                ? 'timeout'
                : error instanceof ShopeeNetworkError
                  ? 'network'
                  : error instanceof ShopeeProtocolError
                    ? 'protocol'
                    : error instanceof ShopeeRequestError
                      ? 'request'
                      : 'protocol';
    const retryAfter = error instanceof ShopeeRateLimitError ? error.retryAfterSeconds : undefined;
    return {
      kind,
      message,
      retryable: error.retryable,
      ...(retryAfter !== undefined ? { retryAfterMs: retryAfter * 1000 } : {}),
    };
  }
  if (error instanceof OrderTranslationError) return { kind: 'order', message, retryable: false };
  // Ours (the database away, a bug): worth another try; it is on the store meanwhile.
  return { kind: 'internal', message, retryable: true };
}
