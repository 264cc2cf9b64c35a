import type {
  MainStoreLockBody,
  PushRuleBody,
  SkuRuleBody,
  SkuRuleKey,
  StoreAllocations,
  StoreWarehousesBody,
} from '@api/contracts/stock-push';
import { checkPushRule, refusePush } from '@domain/channels/stock-push';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { storeAllocations } from '@projections/push-log.queries';
import type { Kysely, Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';

/**
 * The push rules the allocation screens edit (domain/channels/stock-push.ts): a store's rule, a master code's own
 * rule in a store, which warehouses feed a store, and the account's main store lock. Plain settings with an
 * activity-log row per change. A new rule takes effect with the next stock change or manual sync of the store.
 */

type Deps = { db: Kysely<Database> };

async function requireStore(trx: Transaction<Database>, tenantId: string, storeId: string): Promise<void> {
  const found =
    isUuid(storeId) &&
    (await trx
      .selectFrom('stores')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', storeId)
      .executeTakeFirst());
  if (!found) throw refusePush('STORE_NOT_FOUND');
}

async function requireMasterCode(trx: Transaction<Database>, tenantId: string, id: string): Promise<void> {
  const found =
    isUuid(id) &&
    (await trx
      .selectFrom('master_codes')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('id', '=', id)
      .executeTakeFirst());
  if (!found) throw refusePush('MASTER_CODE_NOT_FOUND');
}

const columnsOf = (rule: PushRuleBody, actor: Actor) => ({
  percent: rule.percent,
  fixed: rule.fixed,
  buffer: rule.buffer,
  minimum: rule.minimum,
  maximum: rule.maximum,
  updated_by: actor.userId,
  updated_at: new Date(),
});

/** Sets the store's rule (null: back to showing everything). */
export async function saveStoreRule(
  deps: Deps,
  actor: Actor,
  input: { storeId: string; rule: PushRuleBody | null },
): Promise<StoreAllocations> {
  if (input.rule) checkPushRule(input.rule);
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    await requireStore(trx, actor.tenantId, input.storeId);
    if (input.rule) {
      const columns = columnsOf(input.rule, actor);
      await trx
        .insertInto('stock_push_rules')
        .values({ tenant_id: actor.tenantId, store_id: input.storeId, ...columns })
        .onConflict((oc) => oc.columns(['tenant_id', 'store_id']).doUpdateSet(columns))
        .execute();
    } else {
      await trx
        .deleteFrom('stock_push_rules')
        .where('tenant_id', '=', actor.tenantId)
        .where('store_id', '=', input.storeId)
        .execute();
    }
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'stock_push.store_rule_saved',
      subjectType: 'store',
      subjectId: input.storeId,
      detail: { rule: input.rule },
    });
  });
  return storeAllocations(deps.db, actor.tenantId);
}

/** Which warehouses feed the store (none: its own warehouse, else the default one). */
export async function saveStoreWarehouses(
  deps: Deps,
  actor: Actor,
  input: { storeId: string } & StoreWarehousesBody,
): Promise<StoreAllocations> {
  const ids = [...new Set(input.warehouse_ids)];
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    await requireStore(trx, actor.tenantId, input.storeId);
    if (!ids.every(isUuid)) throw refusePush('WAREHOUSE_NOT_FOUND');
    if (ids.length > 0) {
      const found = await trx
        .selectFrom('warehouses')
        .select('id')
        .where('tenant_id', '=', actor.tenantId)
        .where('id', 'in', ids)
        .execute();
      if (found.length !== ids.length) throw refusePush('WAREHOUSE_NOT_FOUND');
    }
    await trx
      .deleteFrom('stock_push_warehouses')
      .where('tenant_id', '=', actor.tenantId)
      .where('store_id', '=', input.storeId)
      .execute();
    if (ids.length > 0) {
      await trx
        .insertInto('stock_push_warehouses')
        .values(ids.map((id) => ({ tenant_id: actor.tenantId, store_id: input.storeId, warehouse_id: id })))
        .execute();
    }
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'stock_push.warehouses_saved',
      subjectType: 'store',
      subjectId: input.storeId,
      detail: { warehouseIds: ids },
    });
  });
  return storeAllocations(deps.db, actor.tenantId);
}

/** The main store lock: below `lock_below` units only the main store shows stock (no main store: no lock). */
export async function saveMainStoreLock(
  deps: Deps,
  actor: Actor,
  input: MainStoreLockBody,
): Promise<StoreAllocations> {
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    if (input.main_store_id) await requireStore(trx, actor.tenantId, input.main_store_id);
    const columns = {
      main_store_id: input.main_store_id,
      lock_below: input.lock_below,
      updated_by: actor.userId,
      updated_at: new Date(),
    };
    await trx
      .insertInto('stock_push_settings')
      .values({ tenant_id: actor.tenantId, ...columns })
      .onConflict((oc) => oc.column('tenant_id').doUpdateSet(columns))
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'stock_push.main_store_saved',
      subjectType: 'stock_push_settings',
      subjectId: actor.tenantId,
      detail: input,
    });
  });
  return storeAllocations(deps.db, actor.tenantId);
}

/** A master code's own rule in a store, replacing the store's. */
export async function saveSkuRule(deps: Deps, actor: Actor, input: SkuRuleBody): Promise<SkuRuleKey> {
  checkPushRule(input.rule);
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    await requireStore(trx, actor.tenantId, input.store_id);
    await requireMasterCode(trx, actor.tenantId, input.master_code_id);
    const columns = columnsOf(input.rule, actor);
    await trx
      .insertInto('stock_push_sku_rules')
      .values({
        tenant_id: actor.tenantId,
        store_id: input.store_id,
        master_code_id: input.master_code_id,
        ...columns,
      })
      .onConflict((oc) => oc.columns(['tenant_id', 'store_id', 'master_code_id']).doUpdateSet(columns))
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'stock_push.sku_rule_saved',
      subjectType: 'master_code',
      subjectId: input.master_code_id,
      detail: { storeId: input.store_id, rule: input.rule },
    });
  });
  return { store_id: input.store_id, master_code_id: input.master_code_id };
}

/** Removes a master code's own rule: the store's applies again. */
export async function deleteSkuRule(deps: Deps, actor: Actor, input: SkuRuleKey): Promise<SkuRuleKey> {
  await withTenant(deps.db, actor.tenantId, async (trx) => {
    const valid = isUuid(input.store_id) && isUuid(input.master_code_id);
    const removed =
      valid &&
      (await trx
        .deleteFrom('stock_push_sku_rules')
        .where('tenant_id', '=', actor.tenantId)
        .where('store_id', '=', input.store_id)
        .where('master_code_id', '=', input.master_code_id)
        .executeTakeFirst());
    if (!removed || removed.numDeletedRows === 0n) throw refusePush('MASTER_CODE_NOT_FOUND');
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'stock_push.sku_rule_deleted',
      subjectType: 'master_code',
      subjectId: input.master_code_id,
      detail: { storeId: input.store_id },
    });
  });
  return input;
}
