import type { StockEvent, StockEventType } from '@domain/inventory/stock';
import { type AverageCost, moveQuantity, NO_COST, receiveAtCost } from '@domain/purchases/average-cost';
import { divideRounded, fromUnits, toUnits } from '@domain/purchases/money';
import type { PurchaseEvent } from '@domain/purchases/purchase';
import { AVERAGE_COSTS_VIEW } from '@domain/shared/live-views';
import type { AverageCostHistoryTable, AverageCostsTable, CostOfSalesTable, Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from './runtime/projection';

export { AVERAGE_COSTS_VIEW };

/**
 * The moving average cost of each master code across the tenant (domain/purchases/average-cost.ts), from:
 *
 * - PurchaseGoodsReceived (a purchase order recording a goods receive note): each line's received units and its unit
 *   cost net of the order's discount share, kept in `average_cost_receipts` until the units arrive. Damaged units
 *   were paid for but never sellable (the note writes them off as it receives): what the line cost is spread over
 *   the good units only, so the receipt blends received − damaged units at received × cost ÷ (received − damaged);
 * - the stock events that change the quantity on hand. A StockReceived whose source is that note brings the units in
 *   at that cost (blending them into the average), one that carries its own unit cost (a new master code's opening
 *   stock) at that one; every other change moves the quantity held at the average.
 *   Transfers are left out: stock moving between the tenant's own warehouses (or in transit) is still held.
 *
 * The order records the receipt before the note's workflow moves the stock, so the cost is always there first. The
 * projection is a function of the events alone: a rebuild makes the same rows (tests/projections/purchases).
 * Live changes name master codes in the view `averageCosts`.
 *
 * As it goes it keeps the history reports read at a past instant and gross profit reads per sale:
 * - `average_cost_history`: the average and the units held after every movement above, by log position and time;
 * - `cost_of_sales`: each StockShipped (quantity > 0) and StockReturned (quantity < 0) at the average of its moment.
 */

export const AVERAGE_COST_PROJECTION = 'average_cost';

/** The stock events that change what the tenant holds (transfers only move it between its own places). */
const HOLDING_CHANGES = [
  'StockReceived',
  'StockAdjusted',
  'StockShipped',
  'StockReturned',
  'StockWrittenOff',
] as const satisfies readonly StockEventType[];

interface CostRow extends AverageCost {
  receipts: number;
  lastReceiptAt: string | null;
  updatedAt: string;
}

interface PendingCost {
  quantity: number;
  unitCost: string;
}

/** Rows per INSERT into the history tables. */
const INSERT_SLICE = 2000;

const costKey = (tenantId: string, masterCodeId: string) => `${tenantId}\u0000${masterCodeId}`;
const pendingKey = (tenantId: string, goodsReceiptId: string, masterCodeId: string) =>
  `${tenantId}\u0000${goodsReceiptId}\u0000${masterCodeId}`;

async function loadCosts(trx: Transaction<Database>, keys: [string, string][]) {
  if (keys.length === 0) return [];
  return trx
    .selectFrom('average_costs')
    .selectAll()
    .where(
      sql<boolean>`(tenant_id, master_code_id) IN (SELECT * FROM unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::text[]))`,
    )
    .execute();
}

async function loadPending(trx: Transaction<Database>, keys: [string, string, string][]) {
  if (keys.length === 0) return [];
  return trx
    .selectFrom('average_cost_receipts')
    .selectAll()
    .where(
      sql<boolean>`(tenant_id, goods_receipt_id, master_code_id) IN (SELECT * FROM unnest(${keys.map((k) => k[0])}::text[], ${keys.map((k) => k[1])}::text[], ${keys.map((k) => k[2])}::text[]))`,
    )
    .execute();
}

export const averageCostProjection = defineProjection({
  name: AVERAGE_COST_PROJECTION,
  eventTypes: ['PurchaseGoodsReceived', ...HOLDING_CHANGES],
  tables: ['average_costs', 'average_cost_receipts', 'average_cost_history', 'cost_of_sales'],
  async apply(trx, events: readonly RecordedEvent[]) {
    // What the batch touches, loaded once.
    const costKeys = new Map<string, [string, string]>();
    const pendingKeys = new Map<string, [string, string, string]>();
    for (const event of events) {
      const tenantId = event.metadata.tenantId;
      if (event.type === 'PurchaseGoodsReceived') {
        const data = (event as unknown as PurchaseEvent & { type: 'PurchaseGoodsReceived' }).data;
        for (const line of data.lines)
          pendingKeys.set(pendingKey(tenantId, data.goodsReceiptId, line.masterCodeId), [
            tenantId,
            data.goodsReceiptId,
            line.masterCodeId,
          ]);
        continue;
      }
      const data = (event as unknown as StockEvent).data;
      costKeys.set(costKey(tenantId, data.masterCodeId), [tenantId, data.masterCodeId]);
      if (event.type === 'StockReceived' && data.source?.type === 'grn') {
        pendingKeys.set(pendingKey(tenantId, data.source.id, data.masterCodeId), [
          tenantId,
          data.source.id,
          data.masterCodeId,
        ]);
      }
    }
    const [costRows, pendingRows] = await Promise.all([
      loadCosts(trx, [...costKeys.values()]),
      loadPending(trx, [...pendingKeys.values()]),
    ]);
    const costs = new Map<string, CostRow>();
    for (const row of costRows) {
      costs.set(costKey(row.tenant_id, row.master_code_id), {
        onHand: Number(row.on_hand),
        average: fromUnits(toUnits(row.average_cost)),
        receipts: row.receipts,
        lastReceiptAt: row.last_receipt_at?.toISOString() ?? null,
        updatedAt: row.updated_at.toISOString(),
      });
    }
    const pending = new Map<string, PendingCost | null>();
    for (const row of pendingRows) {
      pending.set(pendingKey(row.tenant_id, row.goods_receipt_id, row.master_code_id), {
        quantity: Number(row.quantity),
        unitCost: fromUnits(toUnits(row.unit_cost)),
      });
    }

    const touchedCosts = new Set<string>();
    const touchedPending = new Set<string>();
    const history: Insertable<AverageCostHistoryTable>[] = [];
    const sales: Insertable<CostOfSalesTable>[] = [];
    for (const event of events) {
      const tenantId = event.metadata.tenantId;
      const at = event.metadata.occurredAt;
      if (event.type === 'PurchaseGoodsReceived') {
        const data = (event as unknown as PurchaseEvent & { type: 'PurchaseGoodsReceived' }).data;
        for (const line of data.lines) {
          const good = line.received - line.damaged;
          if (good <= 0) continue;
          const keyOf = pendingKey(tenantId, data.goodsReceiptId, line.masterCodeId);
          const unitCost = fromUnits(
            divideRounded(BigInt(line.received) * toUnits(line.unitCost), BigInt(good)),
          );
          pending.set(keyOf, { quantity: good, unitCost });
          touchedPending.add(keyOf);
        }
        continue;
      }
      const data = (event as unknown as StockEvent).data;
      if (data.change === 0) continue;
      const keyOf = costKey(tenantId, data.masterCodeId);
      const current: CostRow = costs.get(keyOf) ?? {
        ...NO_COST,
        receipts: 0,
        lastReceiptAt: null,
        updatedAt: at,
      };
      let next: CostRow;
      const waiting =
        event.type === 'StockReceived' && data.source?.type === 'grn'
          ? pendingKey(tenantId, data.source.id, data.masterCodeId)
          : undefined;
      const cost = waiting ? pending.get(waiting) : undefined;
      if (!waiting && 'unitCost' in data && data.unitCost !== undefined) {
        next = {
          ...receiveAtCost(current, data.change, data.unitCost),
          receipts: current.receipts + 1,
          lastReceiptAt: at,
          updatedAt: at,
        };
      } else if (waiting && cost) {
        const quantity = Math.min(cost.quantity, data.change);
        const blended = moveQuantity(receiveAtCost(current, quantity, cost.unitCost), data.change - quantity);
        next = { ...blended, receipts: current.receipts + 1, lastReceiptAt: at, updatedAt: at };
        pending.set(
          waiting,
          cost.quantity - quantity > 0 ? { ...cost, quantity: cost.quantity - quantity } : null,
        );
        touchedPending.add(waiting);
      } else {
        next = { ...current, ...moveQuantity(current, data.change), updatedAt: at };
      }
      costs.set(keyOf, next);
      touchedCosts.add(keyOf);
      const position = event.position.prepare.toString();
      history.push({
        tenant_id: tenantId,
        master_code_id: data.masterCodeId,
        global_position: position,
        event_id: event.id,
        occurred_at: at,
        average_cost: next.average,
        on_hand: next.onHand,
      });
      if (event.type === 'StockShipped' || event.type === 'StockReturned') {
        sales.push({
          tenant_id: tenantId,
          event_id: event.id,
          master_code_id: data.masterCodeId,
          warehouse_id: data.warehouseId,
          movement: event.type,
          source_type: data.source?.type ?? null,
          source_id: data.source?.id ?? null,
          quantity: -data.change,
          unit_cost: current.average,
          occurred_at: at,
          global_position: position,
        });
      }
    }

    const costValues = [...touchedCosts].map((keyOf) => {
      const [tenantId, masterCodeId] = keyOf.split('\u0000') as [string, string];
      const row = costs.get(keyOf)!;
      return {
        tenant_id: tenantId,
        master_code_id: masterCodeId,
        on_hand: row.onHand,
        average_cost: row.average,
        receipts: row.receipts,
        last_receipt_at: row.lastReceiptAt,
        updated_at: row.updatedAt,
      };
    });
    if (costValues.length > 0) {
      await trx
        .insertInto('average_costs')
        .values(costValues)
        .onConflict((oc) =>
          oc.columns(['tenant_id', 'master_code_id']).doUpdateSet({
            on_hand: sql`excluded.on_hand`,
            average_cost: sql`excluded.average_cost`,
            receipts: sql`excluded.receipts`,
            last_receipt_at: sql`excluded.last_receipt_at`,
            updated_at: sql`excluded.updated_at`,
          }),
        )
        .execute();
    }
    for (const keyOf of touchedPending) {
      const [tenantId, goodsReceiptId, masterCodeId] = keyOf.split('\u0000') as [string, string, string];
      const row = pending.get(keyOf);
      if (row) {
        await trx
          .insertInto('average_cost_receipts')
          .values({
            tenant_id: tenantId,
            goods_receipt_id: goodsReceiptId,
            master_code_id: masterCodeId,
            quantity: row.quantity,
            unit_cost: row.unitCost,
          })
          .onConflict((oc) =>
            oc.columns(['tenant_id', 'goods_receipt_id', 'master_code_id']).doUpdateSet({
              quantity: sql`excluded.quantity`,
              unit_cost: sql`excluded.unit_cost`,
            }),
          )
          .execute();
      } else {
        await trx
          .deleteFrom('average_cost_receipts')
          .where('tenant_id', '=', tenantId)
          .where('goods_receipt_id', '=', goodsReceiptId)
          .where('master_code_id', '=', masterCodeId)
          .execute();
      }
    }

    // In slices, as a rebuild's large batches would pass Postgres' limit of parameters in one statement.
    for (let start = 0; start < history.length; start += INSERT_SLICE) {
      await trx
        .insertInto('average_cost_history')
        .values(history.slice(start, start + INSERT_SLICE))
        .execute();
    }
    for (let start = 0; start < sales.length; start += INSERT_SLICE) {
      await trx
        .insertInto('cost_of_sales')
        .values(sales.slice(start, start + INSERT_SLICE))
        .execute();
    }

    const changes = new Map<string, LiveChange>();
    for (const row of costValues) {
      const change = changes.get(row.tenant_id) ?? {
        tenantId: row.tenant_id,
        view: AVERAGE_COSTS_VIEW,
        ids: [],
      };
      change.ids.push(row.master_code_id);
      changes.set(row.tenant_id, change);
    }
    return [...changes.values()];
  },
});

// ---- queries ----

export type AverageCostRow = Selectable<AverageCostsTable>;

export interface AverageCostOf {
  masterCodeId: string;
  onHand: number;
  averageCost: string;
  receipts: number;
  lastReceiptAt: string | null;
}

/** The average cost of the given master codes (those never received at a cost are absent). */
export async function averageCostsOf(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeIds: readonly string[],
): Promise<Map<string, AverageCostOf>> {
  if (masterCodeIds.length === 0) return new Map();
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('average_costs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`master_code_id = ANY(${[...masterCodeIds]}::text[])`)
      .execute(),
  );
  return new Map(
    rows.map((row) => [
      row.master_code_id,
      {
        masterCodeId: row.master_code_id,
        onHand: Number(row.on_hand),
        averageCost: fromUnits(toUnits(row.average_cost)),
        receipts: row.receipts,
        lastReceiptAt: row.last_receipt_at?.toISOString() ?? null,
      },
    ]),
  );
}
