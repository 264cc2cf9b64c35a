import type { StoreView } from '@api/contracts/stores';
import { isUuid } from '@api/ids';
import type { WorkflowDeps } from '@api/workflows';
import type { PermissionKey } from '@domain/access/permissions';
import { refuseStore } from '@domain/platform/stores';
import type { Database } from '@infra/db';
import { findStore, type Store } from '@integrations/stores';
import type { Kysely } from 'kysely';

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
  db: Kysely<Database>;
  workflows: WorkflowDeps;
  /** Where the console is reached: the marketplace sends the seller back there. */
  publicUrl: string;
}

export const storeNotFound = () => refuseStore('STORE_NOT_FOUND');

/** The account's store; another account's id (or no uuid at all) is the same 404. */
export async function storeOrNotFound(db: Kysely<Database>, tenantId: string, id: string): Promise<Store> {
  const store = isUuid(id) ? await findStore(db, tenantId, id) : undefined;
  if (!store) throw storeNotFound();
  return store;
}

// ---- the answer ----

export { StoreView } from '@api/contracts/stores';

export interface ScheduleState {
  paused: boolean;
  importing: boolean;
  nextImportAt: Date | null;
}

const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

export async function viewsOf(
  db: Kysely<Database>,
  stores: readonly Store[],
  schedules: ReadonlyMap<string, ScheduleState | null> = new Map(),
): Promise<StoreView[]> {
  const warehouseIds = [...new Set(stores.map((store) => store.warehouseId).filter((id) => id !== null))];
  const warehouses =
    warehouseIds.length === 0 || stores.length === 0
      ? []
      : await db
          .selectFrom('warehouses')
          .select(['id', 'code', 'name'])
          .where('tenant_id', '=', stores[0]!.tenantId)
          .where('id', 'in', warehouseIds)
          .execute();
  const byId = new Map(warehouses.map((row) => [row.id, row]));
  return stores.map((store) => {
    const warehouse = store.warehouseId ? byId.get(store.warehouseId) : undefined;
    const schedule = schedules.get(store.id) ?? null;
    return {
      id: store.id,
      platform: store.platform,
      name: store.name,
      shop_id: store.shopId,
      region: store.region,
      status: store.status,
      warehouse: warehouse ? { id: warehouse.id, code: warehouse.code, name: warehouse.name } : null,
      import_interval_minutes: store.importIntervalMinutes,
      last_import_at: isoOrNull(store.lastImportAt),
      last_import_orders: store.lastImportOrders,
      import_checkpoint: isoOrNull(store.importCheckpoint),
      last_error: store.lastError
        ? {
            kind: store.lastError.kind,
            message: store.lastError.message,
            at: store.lastError.at.toISOString(),
          }
        : null,
      connected_at: store.connectedAt.toISOString(),
      disconnected_at: isoOrNull(store.disconnectedAt),
      created_at: store.createdAt.toISOString(),
      updated_at: store.updatedAt.toISOString(),
      schedule: schedule
        ? {
            paused: schedule.paused,
            importing: schedule.importing,
            next_import_at: isoOrNull(schedule.nextImportAt),
          }
        : null,
    };
  });
}
