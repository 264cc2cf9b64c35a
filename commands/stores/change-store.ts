import type { StoreChangesBody } from '@api/contracts/stores';
import { isUuid } from '@domain/platform/ids';
import { refuseStore } from '@domain/platform/stores';
import { disconnectStore, type Store, type StoreChanges, updateStore } from '@integrations/stores';
import type { Actor } from '../support/actor';
import type { StoreCommandDeps } from './connect-store';
import { ensureImportSchedule, pauseImportSchedule } from './import-schedule';

/**
 * Change a store's name, import interval or warehouse (one of the account's warehouses); a new interval updates
 * its import schedule (saved either way: the schedule follows at the next change or "Import now").
 */
export async function changeStore(
  deps: StoreCommandDeps,
  actor: Actor,
  store: Store,
  input: StoreChangesBody,
): Promise<Store> {
  const { db, workflows } = deps;
  const changes: StoreChanges = {};
  if (input.name !== undefined) changes.name = input.name;
  if (input.import_interval_minutes !== undefined)
    changes.importIntervalMinutes = input.import_interval_minutes;
  if (input.warehouse_id !== undefined) {
    if (input.warehouse_id !== null) {
      const warehouse = isUuid(input.warehouse_id)
        ? await db
            .selectFrom('warehouses')
            .select('id')
            .where('tenant_id', '=', actor.tenantId)
            .where('id', '=', input.warehouse_id)
            .where('kind', '=', 'warehouse')
            .executeTakeFirst()
        : undefined;
      if (!warehouse) throw refuseStore('WAREHOUSE_NOT_FOUND');
    }
    changes.warehouseId = input.warehouse_id;
  }
  if (Object.keys(changes).length === 0) throw refuseStore('NOTHING_TO_CHANGE');
  const updated = await updateStore(db, actor.tenantId, store.id, actor.userId, changes);
  if (!updated) throw refuseStore('STORE_NOT_FOUND');
  if (
    changes.importIntervalMinutes !== undefined &&
    changes.importIntervalMinutes !== store.importIntervalMinutes
  ) {
    try {
      await ensureImportSchedule(workflows, updated);
    } catch (error) {
      deps.log.warn({ err: error, storeId: store.id }, 'store import schedule not updated');
    }
  }
  return updated;
}

/** Disconnect a store: its orders stay, nothing more is imported (its schedule paused), its tokens are deleted. */
export async function disconnectStoreOf(
  deps: StoreCommandDeps,
  actor: Actor,
  storeId: string,
): Promise<Store> {
  const store = await disconnectStore(deps.db, actor.tenantId, storeId, actor.userId);
  if (!store) throw refuseStore('STORE_NOT_FOUND');
  try {
    await pauseImportSchedule(deps.workflows, store);
  } catch (error) {
    // The store is disconnected: a run the schedule still starts reads nothing and ends.
    deps.log.warn({ err: error, storeId: store.id }, 'store import schedule not paused');
  }
  return store;
}
