import type { StoreChangesBody, StoreView } from '@api/contracts/stores';
import { isUuid } from '@domain/platform/ids';
import { refuseStore } from '@domain/platform/stores';
import type { Db } from '@infra/db';
import {
  type ConnectablePlatform,
  findStore,
  isConnectablePlatform,
  listStores,
  type Store,
  shopeeClient,
  signConnectState,
  storeSettings,
} from '@integrations/stores';
import { viewsOf } from '@projections/stores/store-views';
import type { Actor } from '../support/actor';
import { changeStore, disconnectStoreOf } from './change-store';
import { type ConnectCallback, connectStoreFromCallback, type StoreCommandDeps } from './connect-store';
import { importNow, scheduleStateSoon, scheduleStates, temporalError } from './import-schedule';

/**
 * What Settings → store integration asks of the stores, each answered with the store as the console shows it (its
 * warehouse and import schedule; Temporal away shows the schedule as unknown). Another account's store, or an id
 * that is no uuid, is the same 404.
 */

type ViewDeps = Pick<StoreCommandDeps, 'db' | 'workflows'>;

export async function storeOf(db: Db, tenantId: string, id: string): Promise<Store> {
  const store = isUuid(id) ? await findStore(db, tenantId, id) : undefined;
  if (!store) throw refuseStore('STORE_NOT_FOUND');
  return store;
}

export async function storeView({ db, workflows }: ViewDeps, store: Store): Promise<StoreView> {
  const state = await scheduleStateSoon(workflows, store);
  const [view] = await viewsOf(db, [store], new Map([[store.id, state]]));
  return view!;
}

export async function storeViews({ db, workflows }: ViewDeps, tenantId: string): Promise<StoreView[]> {
  const stores = await listStores(db, tenantId);
  return viewsOf(db, stores, await scheduleStates(workflows, stores));
}

export async function storeViewOf(deps: ViewDeps, tenantId: string, id: string): Promise<StoreView> {
  return storeView(deps, await storeOf(deps.db, tenantId, id));
}

export async function editStore(deps: StoreCommandDeps, actor: Actor, id: string, input: StoreChangesBody) {
  const store = await storeOf(deps.db, actor.tenantId, id);
  return storeView(deps, await changeStore(deps, actor, store, input));
}

/** "Import now": refused for a disconnected store, or while an import of it runs. */
export async function importStoreNow(deps: ViewDeps, actor: Actor, id: string): Promise<StoreView> {
  const store = await storeOf(deps.db, actor.tenantId, id);
  if (store.status === 'disconnected') throw refuseStore('STORE_DISCONNECTED');
  try {
    await importNow(deps.workflows, store);
  } catch (error) {
    throw temporalError(error);
  }
  return storeView(deps, store);
}

export async function disconnectStoreView(deps: StoreCommandDeps, actor: Actor, id: string) {
  await storeOf(deps.db, actor.tenantId, id);
  return storeView(deps, await disconnectStoreOf(deps, actor, id));
}

export function platformOf(platform: string): ConnectablePlatform {
  if (!isConnectablePlatform(platform)) throw refuseStore('PLATFORM_UNSUPPORTED', { platform });
  return platform;
}

/**
 * The marketplace's link to authorise a shop. Its redirect is `<public url>/settings/store/add/<platform>/create
 * ?state=…`, the state signed and bound to the account (integrations/stores/connect-state.ts).
 */
export function authorizationLink(publicUrl: string, actor: Actor, platformName: string) {
  const platform = platformOf(platformName);
  const settings = storeSettings();
  const { state, expiresAt } = signConnectState(settings.stateSecret, {
    tenantId: actor.tenantId,
    userId: actor.userId,
    platform,
  });
  const base = publicUrl.replace(/\/+$/, '');
  const redirect = `${base}/settings/store/add/${platform}/create?state=${encodeURIComponent(state)}`;
  return {
    url: shopeeClient(settings.shopee).authorizationUrl(redirect),
    expires_at: expiresAt.toISOString(),
  };
}

/** The callback of a shop authorisation: the store connected (or reconnected), as the console shows it. */
export async function connectFromCallback(
  deps: StoreCommandDeps,
  actor: Actor,
  input: Omit<ConnectCallback, 'platform'> & { platform: string },
) {
  const connected = await connectStoreFromCallback(deps, actor, {
    ...input,
    platform: platformOf(input.platform),
  });
  const [view] = await viewsOf(deps.db, [connected.store]);
  return { store: view!, reconnected: connected.reconnected };
}
