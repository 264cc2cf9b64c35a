import { comboPool, type MainStoreLock, poolOf, quantityToShow, ruleFor } from '@domain/channels/stock-push';
import { available, evolve, initialState, type StockEvent, stockStreamId } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { ruleOfRow } from '@projections/push-log.queries';
import type { StockFigure } from '@workflows/stock-push-protocol';
import { type Kysely, sql } from 'kysely';

/**
 * The quantity each linked channel SKU should show now (domain/channels/stock-push.ts), for the stock push reactor,
 * a manual sync and the reconciliation. The figures are read from the log itself (the last event of each stock
 * stream carries its figures), not from the stock read model, which may lag the event that asked: a figure is as new
 * as the log when it was read, which is what its version says.
 */

export interface FigureScope {
  tenantId: string;
  /** The master codes whose stock moved (their combos follow); absent: every linked SKU of `storeIds`. */
  masterCodeIds?: readonly string[];
  storeIds?: readonly string[];
  /**
   * Where stock moved: each master code with the warehouses it moved in. Only the figures a move can change are
   * answered — a SKU whose own stock (or a component's) moved in a warehouse that feeds the store.
   */
  moved?: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface ComputedFigure extends Omit<StockFigure, 'version' | 'trigger' | 'force'> {
  /** The master codes whose stock the figure counts: the linked code, or a combo's components. */
  sources: readonly string[];
}

export interface StoreFigures {
  storeId: string;
  figures: ComputedFigure[];
}

/** A computed figure as the push workflow takes it. */
export const stockFigure = (
  { sources: _sources, ...figure }: ComputedFigure,
  extra: Pick<StockFigure, 'version' | 'trigger'> & { force?: boolean },
): StockFigure => ({ ...figure, ...extra });

/** Which warehouses feed each store: its own links, else the store's warehouse, else the account's default. */
export async function feedingWarehouses(
  db: Kysely<Database>,
  tenantId: string,
  storeIds: readonly string[],
): Promise<Map<string, string[]>> {
  const feeds = new Map<string, string[]>();
  if (storeIds.length === 0) return feeds;
  const [links, stores, fallback] = await Promise.all([
    db
      .selectFrom('stock_push_warehouses')
      .select(['store_id', 'warehouse_id'])
      .where('tenant_id', '=', tenantId)
      .where('store_id', 'in', storeIds)
      .execute(),
    db
      .selectFrom('stores')
      .select(['id', 'warehouse_id'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', storeIds)
      .execute(),
    db
      .selectFrom('warehouses')
      .select('id')
      .where('tenant_id', '=', tenantId)
      .where('kind', '=', 'warehouse')
      .orderBy('is_default', 'desc')
      .orderBy('created_at')
      .executeTakeFirst(),
  ]);
  for (const link of links)
    feeds.set(link.store_id, [...(feeds.get(link.store_id) ?? []), link.warehouse_id]);
  for (const store of stores) {
    if (feeds.has(store.id)) continue;
    const own = store.warehouse_id ?? fallback?.id;
    feeds.set(store.id, own ? [own] : []);
  }
  return feeds;
}

/** The figures each store's linked SKUs should show, by store. */
export async function stockFigures(
  deps: { db: Kysely<Database>; store: EventStore },
  scope: FigureScope,
): Promise<StoreFigures[]> {
  const { db } = deps;
  const { tenantId } = scope;
  let codes: string[] | undefined;
  const asked = scope.moved ? [...scope.moved.keys()] : scope.masterCodeIds;
  if (asked) {
    if (asked.length === 0) return [];
    const combos = await db
      .selectFrom('combo_items')
      .select('combo_id')
      .distinct()
      .where('tenant_id', '=', tenantId)
      .where('component_id', 'in', asked)
      .execute();
    codes = [...new Set([...asked, ...combos.map((row) => row.combo_id)])];
  }
  let skuQuery = db
    .selectFrom('channel_skus as s')
    .innerJoin('stores as t', (join) =>
      join.onRef('t.tenant_id', '=', 's.tenant_id').on(sql<boolean>`t.id::text = s.store_id`),
    )
    .select(['s.store_id', 's.item_id', 's.model_id', 's.seller_sku', 's.master_code_id'])
    .where('s.tenant_id', '=', tenantId)
    .where('s.master_code_id', 'is not', null)
    .where('s.status', '<>', 'deleted')
    .where('t.status', '<>', 'disconnected');
  if (codes) skuQuery = skuQuery.where('s.master_code_id', 'in', codes);
  if (scope.storeIds) {
    if (scope.storeIds.length === 0) return [];
    skuQuery = skuQuery.where('s.store_id', 'in', scope.storeIds);
  }
  const skus = await skuQuery.orderBy('s.store_id').orderBy('s.item_id').orderBy('s.model_id').execute();
  if (skus.length === 0) return [];

  const storeIds = [...new Set(skus.map((sku) => sku.store_id))];
  const linked = [...new Set(skus.map((sku) => sku.master_code_id!))];
  const [feeds, components, storeRules, skuRules, settings] = await Promise.all([
    feedingWarehouses(db, tenantId, storeIds),
    db
      .selectFrom('combo_items')
      .select(['combo_id', 'component_id', 'quantity'])
      .where('tenant_id', '=', tenantId)
      .where('combo_id', 'in', linked)
      .execute(),
    db.selectFrom('stock_push_rules').selectAll().where('tenant_id', '=', tenantId).execute(),
    db
      .selectFrom('stock_push_sku_rules')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', 'in', linked)
      .execute(),
    db.selectFrom('stock_push_settings').selectAll().where('tenant_id', '=', tenantId).executeTakeFirst(),
  ]);
  const partsOf = new Map<string, { masterCodeId: string; quantity: number }[]>();
  for (const row of components) {
    partsOf.set(row.combo_id, [
      ...(partsOf.get(row.combo_id) ?? []),
      { masterCodeId: row.component_id, quantity: row.quantity },
    ]);
  }
  const lock: MainStoreLock | null = settings?.main_store_id
    ? { mainStoreId: settings.main_store_id, threshold: settings.lock_below }
    : null;
  const storeRule = new Map(storeRules.map((row) => [row.store_id, ruleOfRow(row)]));
  const skuRule = new Map(skuRules.map((row) => [`${row.store_id}/${row.master_code_id}`, ruleOfRow(row)]));

  // One read per stock stream, however many stores and combos ask for it.
  const availableAt = new Map<string, Promise<number>>();
  const availableIn = (masterCodeId: string, warehouseId: string) => {
    const key = `${masterCodeId}@${warehouseId}`;
    let found = availableAt.get(key);
    if (!found) {
      found = deps.store
        .readLastEvent(stockStreamId(tenantId, masterCodeId, warehouseId))
        .then((last) => (last ? available(evolve(initialState, last as unknown as StockEvent)) : 0));
      availableAt.set(key, found);
    }
    return found;
  };
  const standardPool = async (masterCodeId: string, warehouses: readonly string[]) =>
    poolOf(await Promise.all(warehouses.map((warehouseId) => availableIn(masterCodeId, warehouseId))));
  const poolFor = async (masterCodeId: string, warehouses: readonly string[]) => {
    const parts = partsOf.get(masterCodeId);
    if (!parts) return standardPool(masterCodeId, warehouses);
    return comboPool(
      await Promise.all(
        parts.map(async (part) => ({
          pool: await standardPool(part.masterCodeId, warehouses),
          quantity: part.quantity,
        })),
      ),
    );
  };

  const sourcesOf = (masterCodeId: string) =>
    partsOf.get(masterCodeId)?.map((part) => part.masterCodeId) ?? [masterCodeId];
  const movedFor = (sources: readonly string[], warehouses: readonly string[]) =>
    !scope.moved ||
    sources.some((code) => warehouses.some((warehouseId) => scope.moved!.get(code)?.has(warehouseId)));

  const answer: StoreFigures[] = [];
  for (const storeId of storeIds) {
    const warehouses = feeds.get(storeId) ?? [];
    const figures: StoreFigures['figures'] = [];
    for (const sku of skus) {
      if (sku.store_id !== storeId) continue;
      const masterCodeId = sku.master_code_id!;
      const sources = sourcesOf(masterCodeId);
      if (!movedFor(sources, warehouses)) continue;
      const rule = ruleFor(storeRule.get(storeId), skuRule.get(`${storeId}/${masterCodeId}`));
      const pool = await poolFor(masterCodeId, warehouses);
      figures.push({
        itemId: sku.item_id,
        modelId: sku.model_id,
        sellerSku: sku.seller_sku,
        masterCodeId,
        quantity: quantityToShow(pool, rule, { storeId, lock }),
        sources,
      });
    }
    if (figures.length > 0) answer.push({ storeId, figures });
  }
  return answer;
}
