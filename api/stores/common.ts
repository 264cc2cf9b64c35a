import type { WorkflowDeps } from '@api/workflows';
import type { PermissionKey } from '@domain/access/permissions';
import { isUuid } from '@domain/platform/ids';
import { refuseStore } from '@domain/platform/stores';
import type { Db } from '@infra/db';
import { findStore, type Store } from '@integrations/stores';

/**
 * What the store routes share (api/stores/index.ts has the route list): result codes 600–619, the store as an
 * answer shows it, and the lookups every route makes.
 */

export { StoreCode } from '@domain/platform/stores';

export const tags = ['stores'];

/**
 * The key every store route needs. Spec §6 has no "settings → store integration" key; the closest is the listings
 * area's `marketplace_control` (control of the account's marketplaces). The owner holds it, as every key.
 */
export const STORE_PERMISSION = 'marketplace_control' satisfies PermissionKey;

export interface StoreDeps {
  db: Db;
  workflows: WorkflowDeps;
  /** Where the console is reached: the marketplace sends the seller back there. */
  publicUrl: string;
}

export const storeNotFound = () => refuseStore('STORE_NOT_FOUND');

/** The account's store; another account's id (or no uuid at all) is the same 404. */
export async function storeOrNotFound(db: Db, tenantId: string, id: string): Promise<Store> {
  const store = isUuid(id) ? await findStore(db, tenantId, id) : undefined;
  if (!store) throw storeNotFound();
  return store;
}

// ---- the answer ----

export { StoreView } from '@api/contracts/stores';

export { type ScheduleState, viewsOf } from '@projections/stores/store-views';
