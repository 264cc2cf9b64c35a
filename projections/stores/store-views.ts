import type { StoreView } from '@api/contracts/stores';
import type { Database } from '@infra/db';
import type { Store } from '@integrations/stores';
import type { Kysely } from 'kysely';

/** A store as the console shows it: the store, the warehouse its orders go to, its import schedule. */

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
