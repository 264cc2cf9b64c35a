import { randomUUID } from 'node:crypto';
import { defaultWarehouse } from '@commands/inventory/initial-stock';
import { PackageLimits } from '@domain/access/packages';
import { refuseStore } from '@domain/platform/stores';
import type { Db } from '@infra/db';
import { ShopeeAuthError, ShopeeRequestError, type ShopeeTokens } from '@integrations/shopee';
import {
  type ConnectablePlatform,
  checkConnectState,
  classifyStoreError,
  connectStore,
  countLinkedStores,
  findStoreByShop,
  type Store,
  shopeeClient,
  storeSettings,
} from '@integrations/stores';
import type { WorkflowDeps } from '@workflows/updates';
import type { Actor } from '../support/actor';
import { ensureImportSchedule, importNow } from './import-schedule';

export interface StoreCommandDeps {
  db: Db;
  workflows: WorkflowDeps;
  /** Where a step that may fail without undoing the change (Temporal away) is noted. */
  log: { warn(detail: object, message: string): void };
}

/** What the marketplace's callback brought back (spec §3 "Callback result"). */
export interface ConnectCallback {
  platform: ConnectablePlatform;
  state: string | undefined;
  code?: string;
  shopId?: string;
}

/** What a failed call to the marketplace during connecting means for the seller. */
function marketplaceRefusal(error: unknown) {
  if (error instanceof ShopeeAuthError || error instanceof ShopeeRequestError)
    return refuseStore('AUTHORIZATION_REFUSED', { detail: error.code });
  const failure = classifyStoreError(error);
  if (failure.kind === 'internal') throw error;
  return refuseStore('MARKETPLACE_UNAVAILABLE', { detail: failure.kind });
}

/** The package's "linked marketplaces" (null: no limit). */
async function marketplaceLimit(db: Db, tenantId: string): Promise<number | null> {
  const row = await db
    .selectFrom('tenants as t')
    .innerJoin('packages as p', 'p.id', 't.package_id')
    .select('p.limits')
    .where('t.id', '=', tenantId)
    .executeTakeFirst();
  if (!row) return null;
  const limits = PackageLimits.safeParse(row.limits);
  return limits.success ? limits.data.marketplaces : null;
}

/**
 * The callback of a shop authorisation: the state is checked, the code exchanged for the shop's tokens, the shop's
 * name read, the store created (or reconnected), its import schedule made and a first import started. The store is
 * connected whatever Temporal says; a schedule not made now is made by "Import now" or the next change of the store.
 */
export async function connectStoreFromCallback(
  deps: StoreCommandDeps,
  actor: Actor,
  input: ConnectCallback,
): Promise<{ store: Store; reconnected: boolean }> {
  const { db, workflows } = deps;
  const { platform } = input;
  const settings = storeSettings();

  const checked = checkConnectState(settings.stateSecret, input.state, {
    tenantId: actor.tenantId,
    platform,
  });
  if (!checked.ok) {
    const refusal = {
      invalid: 'STATE_INVALID',
      expired: 'STATE_EXPIRED',
      other_account: 'STATE_OTHER_ACCOUNT',
    } as const;
    throw refuseStore(refusal[checked.reason]);
  }
  const shopId = Number(input.shopId);
  if (!input.code || !input.shopId || !/^\d{1,15}$/.test(input.shopId) || shopId <= 0)
    throw refuseStore('CALLBACK_INCOMPLETE');

  const existing = await findStoreByShop(db, actor.tenantId, platform, shopId);
  if (!existing || existing.status === 'disconnected') {
    const limit = await marketplaceLimit(db, actor.tenantId);
    if (limit !== null && (await countLinkedStores(db, actor.tenantId)) >= limit)
      throw refuseStore('LIMIT_REACHED', { limit });
  }

  const client = shopeeClient(settings.shopee);
  let tokens: ShopeeTokens;
  let shop: { shop_name: string; region: string };
  try {
    tokens = await client.getAccessToken({ code: input.code, shopId });
    let held = tokens;
    const reader = shopeeClient(settings.shopee, {
      load: async () => held,
      save: async (_shop, fresh) => {
        held = fresh;
      },
    });
    shop = await reader.getShopInfo(shopId);
    tokens = held;
  } catch (error) {
    throw marketplaceRefusal(error);
  }

  const warehouseId = existing ? null : await defaultWarehouse(db, actor);
  const connected = await connectStore(db, {
    tenantId: actor.tenantId,
    userId: actor.userId,
    platform,
    shopId,
    name: shop.shop_name.trim().slice(0, 100) || `Shopee ${shopId}`,
    region: shop.region.slice(0, 8),
    tokens,
    newStore: { id: randomUUID(), warehouseId },
  });
  try {
    await ensureImportSchedule(workflows, connected.store);
    await importNow(workflows, connected.store);
  } catch (error) {
    deps.log.warn({ err: error, storeId: connected.store.id }, 'store import schedule not started yet');
  }
  return connected;
}
