import type { Database } from '@infra/db';
import { ShopeeChannel } from '@integrations/shopee/channel';
import { findStore, type Store } from '@integrations/stores/registry';
import type { ShopeeConnection } from '@integrations/stores/settings';
import { shopeeClientForStore } from '@integrations/stores/shopee';
import type { Kysely } from 'kysely';
import { ChannelError, type ChannelPort } from './port';

/**
 * The channel of a connected store: the adapter of its platform, acting with the store's own tokens. Callers
 * (publish, download, stock and price push, promotions, the order import) take a store and get the port.
 */
export function channelFor(
  db: Kysely<Database>,
  store: Pick<Store, 'id' | 'tenantId' | 'shopId' | 'platform'>,
  connection?: ShopeeConnection,
): ChannelPort {
  switch (store.platform) {
    case 'shopee':
      return new ShopeeChannel(shopeeClientForStore(db, store, connection), store.shopId);
    default:
      throw new ChannelError('unsupported', `no channel adapter for ${String(store.platform)}`, {
        retryable: false,
      });
  }
}

/**
 * How a workflow's activities reach a store's channel: `channelFor` the store in production; a test hands its own
 * adapter the same way (a channel that refuses, lags or records what it was told).
 */
export type ChannelOf = (store: Store) => ChannelPort | Promise<ChannelPort>;

/** The channel of the tenant's store by `channelOf`; a store no longer there is not worth a retry. */
export async function channelOfStore(
  db: Kysely<Database>,
  channelOf: ChannelOf,
  tenantId: string,
  storeId: string,
): Promise<ChannelPort> {
  const store = await findStore(db, tenantId, storeId);
  if (!store)
    throw new ChannelError('not_found', 'the store is no longer connected to Kedai', { retryable: false });
  return channelOf(store);
}

export { channelErrorOf, ShopeeChannel } from '@integrations/shopee/channel';
export * from './port';
