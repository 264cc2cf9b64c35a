import type { Database } from '@infra/db';
import { ShopeeChannel } from '@integrations/shopee/channel';
import type { Store } from '@integrations/stores/registry';
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

export { channelErrorOf, ShopeeChannel } from '@integrations/shopee/channel';
export * from './port';
