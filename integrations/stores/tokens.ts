import type { Database } from '@infra/db';
import type { ShopeeTokenStore, ShopeeTokens } from '@integrations/shopee';
import { type Kysely, sql } from 'kysely';
import { loadTokens, saveTokens } from './registry';

/**
 * One store's Shopee tokens, in `store_tokens` sealed with the token key (token-seal.ts; never in an API answer),
 * for the ShopeeClient. Tokens belong to the
 * store, not the shop: two accounts that connected the same shop each hold their own pair. Refreshes of a store's
 * tokens, from any process, run one at a time under a Postgres advisory lock on the store, and the client reads
 * the tokens again inside it, so a refresh token (good once) is never spent twice.
 */
export class StoreTokenStore implements ShopeeTokenStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly store: { tenantId: string; storeId: string; shopId: number },
  ) {}

  async load(shopId: number): Promise<ShopeeTokens | undefined> {
    if (shopId !== this.store.shopId) return undefined;
    return loadTokens(this.db, this.store.tenantId, this.store.storeId);
  }

  async save(shopId: number, tokens: ShopeeTokens): Promise<void> {
    if (shopId !== this.store.shopId)
      throw new Error(`store ${this.store.storeId} holds the tokens of shop ${this.store.shopId} only`);
    await saveTokens(this.db, this.store.tenantId, this.store.storeId, tokens);
  }

  /** Runs `run` holding the store's advisory lock (a session lock on one pooled connection, released after). */
  async lock<T>(_shopId: number, run: () => Promise<T>): Promise<T> {
    const key = this.store.storeId;
    return this.db.connection().execute(async (connection) => {
      await sql`SELECT pg_advisory_lock(hashtext('kedai.store_tokens'), hashtext(${key}))`.execute(
        connection,
      );
      try {
        return await run();
      } finally {
        await sql`SELECT pg_advisory_unlock(hashtext('kedai.store_tokens'), hashtext(${key}))`.execute(
          connection,
        );
      }
    });
  }
}
