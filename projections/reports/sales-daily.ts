import { timezoneOfCountry } from '@domain/batches/auto-batch';
import {
  activeLines,
  evolve,
  initialState,
  ORDER_CATEGORY,
  ORDER_EVENT_TYPES,
  type OrderEvent,
  type OrderState,
  type PlacedOrder,
} from '@domain/orders/order';
import { LIVE_VIEWS } from '@domain/shared/live-views';
import type { Database, SalesDailyTable, SkuSalesDailyTable } from '@infra/db';
import { parseStreamId } from '@infra/eventstore/port';
import { type Insertable, type RawBuilder, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange } from '../runtime/projection';

/**
 * Daily sales (issue 16; the dashboard and the sales and top-SKU reports read them): `sales_daily` per seller's local
 * day, store, marketplace, warehouse and currency, and `sku_sales_daily` per master code and seller SKU within those.
 *
 * What counts, as BigSeller's and Ginee's sales figures do:
 * - An order counts on its **order date** (`orderedAt`) in the account's time zone (its country's; Malaysia,
 *   UTC+8, when none), paid or not: paid and unpaid orders are counted apart. It stays on that day whatever happens
 *   later, so a payment, a cancellation or a return moves that day's figures, never today's.
 * - A cancelled (or trashed) order is taken out of orders, units and revenue, and counted in `cancelled_orders` and
 *   `cancelled_amount` instead; once cancelled it stays out (a refund marked afterwards does not bring it back).
 * - Revenue is the lines' value (quantity × unit price) of the lines still on the order; free gifts are neither
 *   units nor revenue. Shipping is the order's shipping fee, apart.
 * - A part split off an order brings its lines' units and revenue, but is not another order (the marketplace's
 *   order was counted once, on the part it was split from). A replacement order is sent at no charge: no sale.
 * - Returns: the units of the returned lines and their value at the sale price (the whole order when it is marked
 *   refunded), on the order's day; revenue stays gross.
 *
 * Each order's folded state (the domain's own `evolve`), the day it counts on, whether it was cancelled and what was
 * returned are kept in `sales_daily_orders`: a batch takes each touched order's former share out of the day tables
 * and puts its new share in, so the tables are always the sum of their orders, and a rebuild lands on the same rows.
 * Live changes name the days that moved in the view `salesDaily`.
 */

export const SALES_DAILY_PROJECTION = 'sales_daily';
export const SALES_DAILY_VIEW = LIVE_VIEWS.salesDaily;

/** The day figures in the order of the table's columns; amounts are kept in cents while a batch adds them up. */
const DAY_FIGURES = [
  'orders',
  'paid_orders',
  'unpaid_orders',
  'cancelled_orders',
  'units',
  'revenue',
  'shipping',
  'cancelled_amount',
  'returned_units',
  'returned_amount',
] as const;
type DayFigure = (typeof DAY_FIGURES)[number];
type DayFigures = Record<DayFigure, number>;
const DAY_AMOUNTS: ReadonlySet<DayFigure> = new Set([
  'revenue',
  'shipping',
  'cancelled_amount',
  'returned_amount',
]);

const SKU_FIGURES = ['orders', 'units', 'revenue'] as const;
type SkuFigure = (typeof SKU_FIGURES)[number];

/** One SKU's share of an order. */
interface SkuSale {
  masterCodeId: string;
  sellerSku: string;
  name: string;
  figures: Record<SkuFigure, number>;
}

/** What an order adds to its day: the day's figures and its SKUs'. */
export interface OrderSales {
  figures: DayFigures;
  skus: SkuSale[];
}

/** An order as the daily sales count it. */
interface Counted {
  state: OrderState;
  /** The seller's local day of its order date (null until its import is seen). */
  day: string | null;
  /** Ever cancelled or trashed. */
  cancelled: boolean;
  /** Units returned so far, per line. */
  returned: Record<string, number>;
}

const cents = (money: string) => Math.round(Number(money) * 100);
const zeroDay = (): DayFigures => Object.fromEntries(DAY_FIGURES.map((figure) => [figure, 0])) as DayFigures;

/** The share of one order in its day's figures (null: it is no sale). */
export function orderSales(
  order: PlacedOrder,
  cancelled: boolean,
  returned: Record<string, number>,
): OrderSales | null {
  if (order.replacementOf) return null;
  const whole = order.splitFrom === null ? 1 : 0;
  const lines = activeLines(order).filter((line) => !line.gift);
  const value = (line: { unitPrice: string }, quantity: number) => cents(line.unitPrice) * quantity;
  const units = lines.reduce((sum, line) => sum + line.quantity, 0);
  const amount = lines.reduce((sum, line) => sum + value(line, line.quantity), 0);
  const figures = zeroDay();
  if (cancelled) {
    figures.cancelled_orders = whole;
    figures.cancelled_amount = amount;
    return { figures, skus: [] };
  }
  const paid = order.paidAt !== null || order.cod;
  const refunded = order.status === 'refunded';
  const back = (line: { lineId: string; quantity: number }) =>
    refunded ? line.quantity : Math.min(returned[line.lineId] ?? 0, line.quantity);
  Object.assign(figures, {
    orders: whole,
    paid_orders: paid ? whole : 0,
    unpaid_orders: paid ? 0 : whole,
    units,
    revenue: amount,
    shipping: whole ? cents(order.details.shippingFee ?? '0') : 0,
    returned_units: lines.reduce((sum, line) => sum + back(line), 0),
    returned_amount: lines.reduce((sum, line) => sum + value(line, back(line)), 0),
  });
  const skus = new Map<string, SkuSale>();
  for (const line of lines) {
    const masterCodeId = line.masterCodeId ?? '';
    const sellerSku = line.sellerSku || line.sku;
    const key = `${masterCodeId}\u0000${sellerSku}`;
    const sale = skus.get(key) ?? {
      masterCodeId,
      sellerSku,
      name: line.name,
      figures: { orders: whole, units: 0, revenue: 0 },
    };
    sale.figures.units += line.quantity;
    sale.figures.revenue += value(line, line.quantity);
    skus.set(key, sale);
  }
  return { figures, skus: [...skus.values()] };
}

// ---- the local day ----

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The calendar day of an instant in a time zone, `yyyy-mm-dd` (one formatter per zone: a rebuild asks a million times). */
function localDay(timezone: string, at: string): string {
  let format = dayFormats.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone: timezone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    dayFormats.set(timezone, format);
  }
  return format.format(new Date(at));
}

// ---- the batch ----

type DayKey = Omit<Insertable<SalesDailyTable>, DayFigure>;
type SkuKey = Omit<Insertable<SkuSalesDailyTable>, SkuFigure | 'name'>;

/** Adds up the batch's differences per day row and per SKU row. */
class Deltas {
  readonly days = new Map<string, { key: DayKey; figures: DayFigures }>();
  readonly skus = new Map<string, { key: SkuKey; name: string; figures: Record<SkuFigure, number> }>();

  add(tenantId: string, day: string, order: PlacedOrder, sales: OrderSales | null, sign: 1 | -1) {
    if (!sales) return;
    const key: DayKey = {
      tenant_id: tenantId,
      day,
      store_id: order.storeId,
      platform: order.details.platform,
      warehouse_id: order.warehouseId,
      currency: order.details.currency,
    };
    const dayName = Object.values(key).join('\u0000');
    const entry = this.days.get(dayName) ?? { key, figures: zeroDay() };
    for (const figure of DAY_FIGURES) entry.figures[figure] += sign * sales.figures[figure];
    this.days.set(dayName, entry);
    for (const sku of sales.skus) {
      const skuKey: SkuKey = { ...key, master_code_id: sku.masterCodeId, seller_sku: sku.sellerSku };
      const skuName = Object.values(skuKey).join('\u0000');
      const skuEntry = this.skus.get(skuName) ?? {
        key: skuKey,
        name: sku.name,
        figures: { orders: 0, units: 0, revenue: 0 },
      };
      for (const figure of SKU_FIGURES) skuEntry.figures[figure] += sign * sku.figures[figure];
      if (sign === 1) skuEntry.name = sku.name;
      this.skus.set(skuName, skuEntry);
    }
  }
}

const nonZero = (figures: Record<string, number>) => Object.values(figures).some((value) => value !== 0);
const SKU_AMOUNTS: ReadonlySet<SkuFigure> = new Set(['revenue']);
/** The columns of figures: counts as they are, amounts from cents to the numeric's text. */
const amountsOf = <Figure extends string>(
  figures: readonly Figure[],
  amounts: ReadonlySet<Figure>,
  values: Record<Figure, number>,
) =>
  Object.fromEntries(
    figures.map((figure) => [
      figure,
      amounts.has(figure) ? (values[figure] / 100).toFixed(2) : values[figure],
    ]),
  );

/**
 * Adds the batch's differences to a day table (each row's figures plus the difference), then deletes the rows whose
 * every figure came back to zero (an order imported, then mapped to another SKU), so that a table holds no more
 * rows than a rebuild would make. In slices, to stay under Postgres' limit of parameters per statement.
 */
async function addUp<Table extends 'sales_daily' | 'sku_sales_daily'>(
  trx: Transaction<Database>,
  table: Table,
  rows: readonly { key: Record<string, string>; values: Record<string, string | number> }[],
  figures: readonly string[],
  replaced: Record<string, RawBuilder<unknown>>,
) {
  for (let i = 0; i < rows.length; i += 1000) {
    const slice = rows.slice(i, i + 1000);
    const names = Object.keys(slice[0]!.key);
    await trx
      .insertInto(table)
      .values(slice.map(({ key, values }) => ({ ...key, ...values })) as Insertable<Database[Table]>[])
      .onConflict((oc) =>
        oc.columns(names as (keyof Database[Table] & string)[]).doUpdateSet({
          ...Object.fromEntries(
            figures.map((figure) => [
              figure,
              sql`${sql.ref(`${table}.${figure}`)} + excluded.${sql.ref(figure)}`,
            ]),
          ),
          ...replaced,
        } as never),
      )
      .execute();
    const arrays = names.map((name) => sql`${slice.map(({ key }) => key[name])}::text[]`);
    const joined = sql.join(
      names.map((name) => sql`t.${sql.ref(name)} = k.${sql.ref(name)}`),
      sql` AND `,
    );
    const empty = sql.join(
      figures.map((figure) => sql`t.${sql.ref(figure)} = 0`),
      sql` AND `,
    );
    await sql`
      DELETE FROM ${sql.table(table)} t
      USING unnest(${sql.join(arrays)}) AS k(${sql.join(names.map((name) => sql.ref(name)))})
      WHERE ${joined} AND ${empty}`.execute(trx);
  }
}

export const salesDailyProjection = defineProjection({
  name: SALES_DAILY_PROJECTION,
  eventTypes: ORDER_EVENT_TYPES,
  tables: ['sales_daily', 'sku_sales_daily', 'sales_daily_orders'],
  async apply(trx, events) {
    const touched = new Map<string, { tenantId: string; orderId: string; events: OrderEvent[] }>();
    for (const recorded of events) {
      const stream = parseStreamId(recorded.stream);
      if (stream?.category !== ORDER_CATEGORY) continue;
      const name = `${stream.tenantId}\u0000${stream.entityKey}`;
      const entry = touched.get(name) ?? { tenantId: stream.tenantId, orderId: stream.entityKey, events: [] };
      entry.events.push({ type: recorded.type, data: recorded.data } as OrderEvent);
      touched.set(name, entry);
    }
    if (touched.size === 0) return [];
    const wanted = [...touched.values()];

    // Joined to the keys, one primary-key lookup per order (as projections/orders.ts reads its rows).
    const { rows } = await sql<{
      tenant_id: string;
      order_id: string;
      day: string;
      cancelled: boolean;
      returned: Record<string, number>;
      state: OrderState;
    }>`
      SELECT o.tenant_id, o.order_id, o.day, o.cancelled, o.returned, o.state
      FROM unnest(${wanted.map((e) => e.tenantId)}::text[], ${wanted.map((e) => e.orderId)}::text[]) AS k(tenant_id, order_id)
      JOIN sales_daily_orders o ON o.tenant_id = k.tenant_id AND o.order_id = k.order_id`.execute(trx);
    const before = new Map<string, Counted>(
      rows.map((row) => [
        `${row.tenant_id}\u0000${row.order_id}`,
        { state: row.state, day: row.day, cancelled: row.cancelled, returned: row.returned },
      ]),
    );
    const tenants = [...new Set(wanted.map((entry) => entry.tenantId))];
    const zones = new Map(
      (await trx.selectFrom('tenants').select(['id', 'country']).where('id', 'in', tenants).execute()).map(
        (row) => [row.id, timezoneOfCountry(row.country)],
      ),
    );

    const deltas = new Deltas();
    const written: {
      tenantId: string;
      orderId: string;
      counted: Counted & { day: string; state: PlacedOrder };
    }[] = [];
    for (const [name, { tenantId, orderId, events: orderEvents }] of touched) {
      const was = before.get(name);
      let counted: Counted = was ?? { state: initialState, day: null, cancelled: false, returned: {} };
      for (const event of orderEvents) {
        if (counted.state.status === 'none' && event.type !== 'OrderImported') continue;
        const state = evolve(counted.state, event);
        const day =
          event.type === 'OrderImported'
            ? localDay(zones.get(tenantId) ?? timezoneOfCountry(null), event.data.orderedAt)
            : counted.day;
        const returned = { ...counted.returned };
        if (event.type === 'OrderReturned') {
          for (const line of event.data.lines)
            returned[line.lineId] = (returned[line.lineId] ?? 0) + line.quantity;
        }
        const cancelled = counted.cancelled || state.status === 'cancelled' || state.status === 'trash';
        counted = { state, day, cancelled, returned };
      }
      if (counted.state.status === 'none' || counted.day === null) continue;
      if (was && was.state.status !== 'none' && was.day !== null) {
        deltas.add(tenantId, was.day, was.state, orderSales(was.state, was.cancelled, was.returned), -1);
      }
      const now = counted.state;
      deltas.add(tenantId, counted.day, now, orderSales(now, counted.cancelled, counted.returned), 1);
      written.push({ tenantId, orderId, counted: { ...counted, day: counted.day, state: now } });
    }
    if (written.length === 0) return [];

    await trx
      .insertInto('sales_daily_orders')
      .values(
        written.map(({ tenantId, orderId, counted }) => ({
          tenant_id: tenantId,
          order_id: orderId,
          day: counted.day,
          cancelled: counted.cancelled,
          returned: JSON.stringify(counted.returned),
          state: JSON.stringify(counted.state),
        })),
      )
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'order_id']).doUpdateSet({
          day: sql`excluded.day`,
          cancelled: sql`excluded.cancelled`,
          returned: sql`excluded.returned`,
          state: sql`excluded.state`,
        }),
      )
      .execute();

    const days = [...deltas.days.values()].filter((entry) => nonZero(entry.figures));
    await addUp(
      trx,
      'sales_daily',
      days.map(({ key, figures }) => ({ key, values: amountsOf(DAY_FIGURES, DAY_AMOUNTS, figures) })),
      DAY_FIGURES,
      {},
    );
    const skus = [...deltas.skus.values()].filter((entry) => nonZero(entry.figures));
    await addUp(
      trx,
      'sku_sales_daily',
      skus.map(({ key, name, figures }) => ({
        key,
        values: { name, ...amountsOf(SKU_FIGURES, SKU_AMOUNTS, figures) },
      })),
      SKU_FIGURES,
      { name: sql`excluded.name` },
    );

    const changed = new Map<string, Set<string>>();
    for (const { key } of [...days, ...skus]) {
      const set = changed.get(key.tenant_id) ?? new Set<string>();
      set.add(key.day);
      changed.set(key.tenant_id, set);
    }
    return [...changed].map(
      ([tenantId, changedDays]): LiveChange => ({ tenantId, view: SALES_DAILY_VIEW, ids: [...changedDays] }),
    );
  },
});
