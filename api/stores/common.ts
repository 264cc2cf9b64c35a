import { ApiError } from '@api/errors';
import { isUuid } from '@api/ids';
import type { WorkflowDeps } from '@api/workflows';
import type { PermissionKey } from '@domain/access/permissions';
import type { Database } from '@infra/db';
import { findStore, type Store } from '@integrations/stores';
import type { Kysely } from 'kysely';
import { z } from 'zod';

/**
 * What the store routes share (api/stores/index.ts has the route list): result codes 600–619, the store as an
 * answer shows it, and the lookups every route makes.
 */

export const StoreCode = {
  /** No such platform to connect a store on (yet). */
  platformUnsupported: 600,
  /** The callback's state is missing, made up or edited. */
  stateInvalid: 601,
  /** The connect link is older than 30 minutes. */
  stateExpired: 602,
  /** The authorisation was started by another account. */
  stateOtherAccount: 603,
  /** The callback lacks the code or the shop id. */
  callbackIncomplete: 604,
  /** The marketplace refused the authorisation code (used, expired, not ours). */
  authorizationRefused: 605,
  /** The marketplace could not be reached or failed (HTTP 503). */
  marketplaceUnavailable: 606,
  /** The package's "linked marketplaces" are all in use (HTTP 409). */
  limitReached: 607,
  intervalInvalid: 608,
  warehouseNotFound: 609,
  storeNotFound: 610,
  /** The store is disconnected: connect it again first (HTTP 409). */
  storeDisconnected: 611,
  /** An import of the store is running (HTTP 409). */
  importRunning: 612,
  nameInvalid: 613,
  /** A change without any field. */
  nothingToChange: 614,
} as const;

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

export const storeNotFound = () => new ApiError(404, StoreCode.storeNotFound, 'store.not_found');

/** The account's store; another account's id (or no uuid at all) is the same 404. */
export async function storeOrNotFound(db: Kysely<Database>, tenantId: string, id: string): Promise<Store> {
  const store = isUuid(id) ? await findStore(db, tenantId, id) : undefined;
  if (!store) throw storeNotFound();
  return store;
}

// ---- the answer ----

export const StoreErrorView = z.object({ kind: z.string(), message: z.string(), at: z.string() });

export const StoreView = z.object({
  id: z.string(),
  platform: z.string(),
  name: z.string(),
  shop_id: z.number(),
  region: z.string(),
  status: z.enum(['connected', 'error', 'disconnected']),
  /** The warehouse its orders go to (null: the account's default). */
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }).nullable(),
  import_interval_minutes: z.number().int(),
  last_import_at: z.string().nullable(),
  last_import_orders: z.number().int().nullable(),
  /** Every order updated before this instant is imported. */
  import_checkpoint: z.string().nullable(),
  last_error: StoreErrorView.nullable(),
  connected_at: z.string(),
  disconnected_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The store's import schedule, as Temporal has it (null: not reachable now, or not made yet). */
  schedule: z
    .object({
      paused: z.boolean(),
      importing: z.boolean(),
      next_import_at: z.string().nullable(),
    })
    .nullable(),
});
export type StoreView = z.infer<typeof StoreView>;

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
