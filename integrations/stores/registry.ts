import type { Database } from '@infra/db';
import type { StoresTable } from '@infra/db/schema';
import type { ShopeeTokens } from '@integrations/shopee';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { storeSettings, tokenKeyOf } from './settings';
import { openToken, sealToken } from './token-seal';

/**
 * The store registry: the marketplace stores of each account (table `stores`), one per (account, platform, shop).
 * A store is `connected` (its orders are imported on its schedule), `error` (the last import failed for good: the
 * error is on the store until an import succeeds), or `disconnected` (the seller disconnected it: nothing is
 * imported, its tokens are gone; connecting the shop again brings it back with its settings). Every change by a
 * person writes an activity-log row; the import's own bookkeeping (checkpoint, last import, last error) does not.
 */

/** The platforms a store can be connected on today. */
export const CONNECTABLE_PLATFORMS = ['shopee'] as const;
export type ConnectablePlatform = (typeof CONNECTABLE_PLATFORMS)[number];
export const isConnectablePlatform = (value: string): value is ConnectablePlatform =>
  (CONNECTABLE_PLATFORMS as readonly string[]).includes(value);

export type StoreStatus = StoresTable['status'];

export { IMPORT_INTERVAL } from '@domain/platform/stores';

/** What went wrong with a store's import, by kind (the console words each kind), with the platform's detail. */
export const STORE_ERROR_KINDS = [
  'signature',
  'authorization',
  'rate_limit',
  'server',
  'timeout',
  'network',
  'request',
  'protocol',
  'order',
  'internal',
] as const;
export type StoreErrorKind = (typeof STORE_ERROR_KINDS)[number];

export interface StoreError {
  kind: StoreErrorKind;
  message: string;
  at: Date;
}

export interface Store {
  id: string;
  tenantId: string;
  platform: ConnectablePlatform;
  name: string;
  shopId: number;
  region: string;
  status: StoreStatus;
  /** Null: the account's default warehouse. */
  warehouseId: string | null;
  importIntervalMinutes: number;
  /** Every order the marketplace updated before this instant has been imported. */
  importCheckpoint: Date | null;
  lastImportAt: Date | null;
  lastImportOrders: number | null;
  lastError: StoreError | null;
  connectedBy: string | null;
  connectedAt: Date;
  disconnectedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type Db = Kysely<Database> | Transaction<Database>;

/** The activity-log row of a person's change to a store (the same table commands/support/activity.ts writes). */
async function logActivity(
  db: Db,
  entry: {
    tenantId: string;
    userId: string;
    action: string;
    subjectType: 'store';
    subjectId: string;
    detail?: Record<string, unknown>;
  },
): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      tenant_id: entry.tenantId,
      user_id: entry.userId,
      action: entry.action,
      subject_type: entry.subjectType,
      subject_id: entry.subjectId,
      detail: JSON.stringify(entry.detail ?? {}),
    })
    .execute();
}

export function storeOf(row: Selectable<StoresTable>): Store {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    platform: row.platform as ConnectablePlatform,
    name: row.name,
    shopId: Number(row.shop_id),
    region: row.region,
    status: row.status,
    warehouseId: row.warehouse_id,
    importIntervalMinutes: row.import_interval_minutes,
    importCheckpoint: row.import_checkpoint,
    lastImportAt: row.last_import_at,
    lastImportOrders: row.last_import_orders,
    lastError:
      row.last_error !== null && row.last_error_at !== null
        ? {
            kind: (row.last_error_kind ?? 'internal') as StoreErrorKind,
            message: row.last_error,
            at: row.last_error_at,
          }
        : null,
    connectedBy: row.connected_by,
    connectedAt: row.connected_at,
    disconnectedAt: row.disconnected_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The account's store, or undefined (another account's id is the same as a missing one). */
export async function findStore(db: Db, tenantId: string, storeId: string): Promise<Store | undefined> {
  const row = await db
    .selectFrom('stores')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', storeId)
    .executeTakeFirst();
  return row && storeOf(row);
}

/** The account's stores, oldest first. */
export async function listStores(db: Db, tenantId: string): Promise<Store[]> {
  const rows = await db
    .selectFrom('stores')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(storeOf);
}

/** Stores that count against the package's "linked marketplaces" limit: every one not disconnected. */
export async function countLinkedStores(db: Db, tenantId: string): Promise<number> {
  const row = await db
    .selectFrom('stores')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', tenantId)
    .where('status', '<>', 'disconnected')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function findStoreByShop(
  db: Db,
  tenantId: string,
  platform: ConnectablePlatform,
  shopId: number,
): Promise<Store | undefined> {
  const row = await db
    .selectFrom('stores')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('platform', '=', platform)
    .where('shop_id', '=', String(shopId))
    .executeTakeFirst();
  return row && storeOf(row);
}

export interface ConnectInput {
  tenantId: string;
  userId: string;
  platform: ConnectablePlatform;
  shopId: number;
  name: string;
  region: string;
  tokens: ShopeeTokens;
  /** The id and the warehouse of the store if it is new (a reconnected store keeps its own). */
  newStore: { id: string; warehouseId: string | null };
}

/**
 * Creates the store of a shop the seller just authorised, or reconnects the one the account already has for it
 * (status connected, error cleared, settings and import checkpoint kept), and stores its tokens; one transaction.
 */
export async function connectStore(
  db: Kysely<Database>,
  input: ConnectInput,
): Promise<{ store: Store; reconnected: boolean }> {
  try {
    return await connectOnce(db, input);
  } catch (error) {
    // Two callbacks of the same new shop at once: the second's insert meets the first's row; it reconnects that.
    if ((error as { code?: string }).code !== '23505') throw error;
    return connectOnce(db, input);
  }
}

function connectOnce(
  db: Kysely<Database>,
  input: ConnectInput,
): Promise<{ store: Store; reconnected: boolean }> {
  return db.transaction().execute(async (trx) => {
    const now = new Date();
    const existing = await trx
      .selectFrom('stores')
      .select(['id', 'status'])
      .where('tenant_id', '=', input.tenantId)
      .where('platform', '=', input.platform)
      .where('shop_id', '=', String(input.shopId))
      .forUpdate()
      .executeTakeFirst();
    let storeId: string;
    if (existing) {
      storeId = existing.id;
      await trx
        .updateTable('stores')
        .set({
          name: input.name,
          region: input.region,
          status: 'connected',
          last_error: null,
          last_error_kind: null,
          last_error_at: null,
          connected_by: input.userId,
          connected_at: now,
          disconnected_at: null,
          updated_at: now,
        })
        .where('tenant_id', '=', input.tenantId)
        .where('id', '=', storeId)
        .execute();
    } else {
      storeId = input.newStore.id;
      await trx
        .insertInto('stores')
        .values({
          id: storeId,
          tenant_id: input.tenantId,
          platform: input.platform,
          name: input.name,
          shop_id: String(input.shopId),
          region: input.region,
          status: 'connected',
          warehouse_id: input.newStore.warehouseId,
          connected_by: input.userId,
          connected_at: now,
        })
        .execute();
    }
    await saveTokens(trx, input.tenantId, storeId, input.tokens);
    await logActivity(trx, {
      tenantId: input.tenantId,
      userId: input.userId,
      action: existing ? 'store.reconnected' : 'store.connected',
      subjectType: 'store',
      subjectId: storeId,
      detail: { platform: input.platform, shop_id: input.shopId, name: input.name },
    });
    const store = await findStore(trx, input.tenantId, storeId);
    return { store: store!, reconnected: existing !== undefined };
  });
}

export async function saveTokens(
  db: Db,
  tenantId: string,
  storeId: string,
  tokens: ShopeeTokens,
): Promise<void> {
  const key = tokenKeyOf(storeSettings());
  const values = {
    access_token: sealToken(key, storeId, tokens.accessToken),
    refresh_token: sealToken(key, storeId, tokens.refreshToken),
    expires_at: new Date(tokens.expiresAt),
    updated_at: new Date(),
  };
  await db
    .insertInto('store_tokens')
    .values({ store_id: storeId, tenant_id: tenantId, ...values })
    .onConflict((oc) => oc.column('store_id').doUpdateSet(values))
    .execute();
}

export async function loadTokens(
  db: Db,
  tenantId: string,
  storeId: string,
): Promise<ShopeeTokens | undefined> {
  const row = await db
    .selectFrom('store_tokens')
    .select(['access_token', 'refresh_token', 'expires_at'])
    .where('tenant_id', '=', tenantId)
    .where('store_id', '=', storeId)
    .executeTakeFirst();
  if (!row) return undefined;
  // Tokens that do not open (the key changed) are as good as none: the store asks to be authorised again.
  const key = tokenKeyOf(storeSettings());
  const accessToken = openToken(key, storeId, row.access_token);
  const refreshToken = openToken(key, storeId, row.refresh_token);
  if (accessToken === null || refreshToken === null) return undefined;
  return { accessToken, refreshToken, expiresAt: row.expires_at.getTime() };
}

export interface StoreChanges {
  name?: string;
  importIntervalMinutes?: number;
  /** Null: back to the account's default warehouse. */
  warehouseId?: string | null;
}

/** Changes a store's settings; the store as it is afterwards (undefined: no such store in the account). */
export async function updateStore(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  userId: string,
  changes: StoreChanges,
): Promise<Store | undefined> {
  return db.transaction().execute(async (trx) => {
    const set = {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.importIntervalMinutes !== undefined
        ? { import_interval_minutes: changes.importIntervalMinutes }
        : {}),
      ...(changes.warehouseId !== undefined ? { warehouse_id: changes.warehouseId } : {}),
      updated_at: new Date(),
    };
    const updated = await trx
      .updateTable('stores')
      .set(set)
      .where('tenant_id', '=', tenantId)
      .where('id', '=', storeId)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) return undefined;
    await logActivity(trx, {
      tenantId,
      userId,
      action: 'store.updated',
      subjectType: 'store',
      subjectId: storeId,
      detail: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.importIntervalMinutes !== undefined
          ? { import_interval_minutes: changes.importIntervalMinutes }
          : {}),
        ...(changes.warehouseId !== undefined ? { warehouse_id: changes.warehouseId } : {}),
      },
    });
    return findStore(trx, tenantId, storeId);
  });
}

/** Disconnects a store: nothing more is imported and its tokens are deleted. Disconnecting twice changes nothing. */
export async function disconnectStore(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  userId: string,
): Promise<Store | undefined> {
  return db.transaction().execute(async (trx) => {
    const store = await trx
      .selectFrom('stores')
      .select(['id', 'status'])
      .where('tenant_id', '=', tenantId)
      .where('id', '=', storeId)
      .forUpdate()
      .executeTakeFirst();
    if (!store) return undefined;
    if (store.status !== 'disconnected') {
      const now = new Date();
      await trx
        .updateTable('stores')
        .set({ status: 'disconnected', disconnected_at: now, updated_at: now })
        .where('tenant_id', '=', tenantId)
        .where('id', '=', storeId)
        .execute();
      await trx
        .deleteFrom('store_tokens')
        .where('tenant_id', '=', tenantId)
        .where('store_id', '=', storeId)
        .execute();
      await logActivity(trx, {
        tenantId,
        userId,
        action: 'store.disconnected',
        subjectType: 'store',
        subjectId: storeId,
      });
    }
    return findStore(trx, tenantId, storeId);
  });
}

// ---- the import's bookkeeping ----

/** Notes a failed attempt's error on the store at once (the import may still succeed on a retry). */
export async function noteImportError(
  db: Db,
  tenantId: string,
  storeId: string,
  error: { kind: StoreErrorKind; message: string },
): Promise<void> {
  const now = new Date();
  await db
    .updateTable('stores')
    .set({
      last_error: error.message.slice(0, 2000),
      last_error_kind: error.kind,
      last_error_at: now,
      updated_at: now,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', storeId)
    .where('status', '<>', 'disconnected')
    .execute();
}

/** The import failed for good: the store is in error, with the error shown on it, until an import succeeds. */
export async function markImportFailed(
  db: Db,
  tenantId: string,
  storeId: string,
  error: { kind: StoreErrorKind; message: string },
): Promise<void> {
  const now = new Date();
  await db
    .updateTable('stores')
    .set({
      status: 'error',
      last_error: error.message.slice(0, 2000),
      last_error_kind: error.kind,
      last_error_at: now,
      updated_at: now,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', storeId)
    .where('status', '<>', 'disconnected')
    .execute();
}

/** Every order updated before `checkpoint` is imported: the next import starts there (it never moves back). */
export async function advanceCheckpoint(
  db: Db,
  tenantId: string,
  storeId: string,
  checkpoint: Date,
): Promise<void> {
  await db
    .updateTable('stores')
    .set({
      import_checkpoint: sql<Date>`greatest(coalesce(import_checkpoint, ${checkpoint}), ${checkpoint})`,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', storeId)
    .execute();
}

/** An import succeeded: the store is connected again (unless disconnected meanwhile) and its error is cleared. */
export async function markImportSucceeded(
  db: Db,
  tenantId: string,
  storeId: string,
  result: { orders: number; at: Date },
): Promise<void> {
  await db
    .updateTable('stores')
    .set({
      status: sql<StoreStatus>`case when status = 'disconnected' then status else 'connected' end`,
      last_import_at: result.at,
      last_import_orders: result.orders,
      last_error: null,
      last_error_kind: null,
      last_error_at: null,
      updated_at: result.at,
    })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', storeId)
    .execute();
}
