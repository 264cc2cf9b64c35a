import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { DateFilter, gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import { notFound } from '@api/errors';
import { IdParams } from '@api/ids';
import { loadBatch } from '@commands/batches/batch';
import { BATCH_SPLITS, BATCH_STATUSES, BATCH_TYPES, type BatchState } from '@domain/batches/batch';
import { ORDER_STATUSES } from '@domain/orders/order';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { SCANNED_STATUSES } from '@projections/batches';
import {
  allOf,
  dateWhere,
  pageWindow,
  searchWhere,
  setWhere,
  sortTerms,
  textWhere,
} from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { z } from 'zod';
import {
  BATCH_KEY,
  type BatchDeps,
  batchIdOf,
  batchTags as tags,
  UserAnswer,
  userAnswer,
  userNames,
} from './batches-common';

/**
 * Reading batches: the list (ag-grid Infinite Row Model), one batch with its orders and history, the orders waiting
 * for a batch (what "create batch" selects from), and the account's users a batch can be given to.
 */

const iso = (value: Date | null) => (value ? value.toISOString() : null);

// ---- the batch list ----

const BATCH_SORTS = [
  'number',
  'label',
  'name',
  'date',
  'status',
  'type',
  'total_orders',
  'created_at',
] as const;
export const BatchListQuery = gridQuery(BATCH_SORTS, {
  label: TextFilter,
  name: TextFilter,
  group: TextFilter,
  status: setFilter(BATCH_STATUSES),
  type: setFilter(BATCH_TYPES),
  created_at: DateFilter,
}).extend({
  status: z.enum(BATCH_STATUSES).optional(),
  picker_id: z.string().max(64).optional(),
});
export type BatchListQuery = z.infer<typeof BatchListQuery>;

export const BatchAnswer = z.object({
  id: z.string(),
  number: z.number().int(),
  label: z.string(),
  name: z.string(),
  type: z.enum(BATCH_TYPES),
  status: z.enum(BATCH_STATUSES),
  picker: UserAnswer.nullable(),
  date: z.string(),
  max_orders: z.number().int(),
  split: z.enum(BATCH_SPLITS),
  group: z.string().nullable(),
  source: z.enum(['manual', 'auto']),
  config_id: z.string().nullable(),
  total_orders: z.number().int(),
  scanned_orders: z.number().int(),
  created_by: UserAnswer.nullable(),
  created_at: z.string(),
  closed_at: z.string().nullable(),
});
export type BatchAnswer = z.infer<typeof BatchAnswer>;

const scannedCount = sql<number>`(
  SELECT count(*)::int4 FROM orders o
  WHERE o.tenant_id = b.tenant_id AND o.id = ANY (b.order_ids) AND o.status IN (${sql.join([...SCANNED_STATUSES])}))`;

export async function batchPage(db: Kysely<Database>, tenantId: string, query: BatchListQuery) {
  const where: RawBuilder<SqlBool>[] = [sql<SqlBool>`b.tenant_id = ${tenantId}`];
  if (query.status) where.push(sql<SqlBool>`b.status = ${query.status}`);
  if (query.picker_id) where.push(sql<SqlBool>`b.picker_id::text = ${query.picker_id.toLowerCase()}`);
  const filters = query.filterModel;
  if (filters.label) where.push(textWhere(sql`b.label`, filters.label));
  if (filters.name) where.push(textWhere(sql`b.name`, filters.name));
  if (filters.group) where.push(textWhere(sql`coalesce(b.group_value, '')`, filters.group));
  if (filters.status) where.push(setWhere(sql`b.status`, filters.status.values));
  if (filters.type) where.push(setWhere(sql`b.type`, filters.type.values));
  if (filters.created_at) where.push(dateWhere(sql`b.created_at`, filters.created_at));
  const search = query.search?.trim();
  if (search) where.push(searchWhere([sql`b.label`, sql`b.name`, sql`coalesce(b.group_value, '')`], search));
  const sorts = {
    number: sql`b.number`,
    label: sql`b.label`,
    name: sql`b.name`,
    date: sql`b.date`,
    status: sql`b.status`,
    type: sql`b.type`,
    total_orders: sql`b.total_orders`,
    created_at: sql`b.created_at`,
  };
  const condition = allOf(where);
  const order = sql.join([...sortTerms(query.sortModel, sorts), sql`b.number DESC`, sql`b.id`]);
  const { limit, offset } = pageWindow(query);
  const { rows, lastRow } = await withTenant(db, tenantId, async (trx) => {
    const page = await sql<BatchRowWithCount>`
      SELECT b.*, ${scannedCount} AS scanned_orders FROM batches b
      WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{ n: string }>`SELECT count(*) AS n FROM batches b WHERE ${condition}`.execute(
      trx,
    );
    return { rows: page.rows, lastRow: Number(count.rows[0]?.n ?? 0) };
  });
  const names = await userNames(
    db,
    tenantId,
    rows.flatMap((row) => [row.picker_id, row.created_by]),
  );
  return { lastRow, rows: rows.map((row) => batchAnswerOfRow(row, names)) };
}

interface BatchRowWithCount {
  id: string;
  number: number;
  label: string;
  name: string;
  type: 'normal' | 'pre-order';
  status: 'open' | 'closed';
  picker_id: string | null;
  date: string;
  max_orders: number;
  split: 'none' | 'logistics' | 'payment';
  group_value: string | null;
  source: 'manual' | 'auto';
  config_id: string | null;
  order_ids: string[];
  total_orders: number;
  scanned_orders: number;
  created_by: string | null;
  created_at: Date;
  closed_at: Date | null;
}

const batchAnswerOfRow = (row: BatchRowWithCount, names: ReadonlyMap<string, string>): BatchAnswer => ({
  id: row.id,
  number: row.number,
  label: row.label,
  name: row.name,
  type: row.type,
  status: row.status,
  picker: userAnswer(names, row.picker_id),
  date: row.date,
  max_orders: row.max_orders,
  split: row.split,
  group: row.group_value,
  source: row.source,
  config_id: row.config_id,
  total_orders: row.total_orders,
  scanned_orders: row.scanned_orders,
  created_by: userAnswer(names, row.created_by),
  created_at: row.created_at.toISOString(),
  closed_at: iso(row.closed_at),
});

// ---- one batch ----

export const BatchOrderAnswer = z.object({
  id: z.string(),
  order_number: z.string().nullable(),
  tracking_number: z.string().nullable(),
  status: z.string().nullable(),
  store_id: z.string().nullable(),
  platform: z.string().nullable(),
  shipping_provider: z.string().nullable(),
  payment_method: z.string().nullable(),
  item_count: z.number().int(),
  line_count: z.number().int(),
  scanned_at: z.string().nullable(),
  scanned_by: UserAnswer.nullable(),
  /** The order's scan check, while one is open or done. */
  check: z
    .object({
      status: z.enum(['open', 'completed', 'idle']),
      picker: UserAnswer.nullable(),
      scanned_units: z.number().int(),
      required_units: z.number().int(),
    })
    .nullable(),
});

export const TimelineAnswer = z.object({
  type: z.string(),
  at: z.string(),
  user: UserAnswer.nullable(),
  data: z.record(z.string(), z.unknown()),
});

export const BatchDetail = BatchAnswer.extend({
  orders: z.array(BatchOrderAnswer),
  timeline: z.array(TimelineAnswer),
});
export type BatchDetail = z.infer<typeof BatchDetail>;

/** The orders of a batch as the order board has them now, with their scan checks; in the batch's order. */
export async function batchOrders(db: Kysely<Database>, tenantId: string, orderIds: readonly string[]) {
  if (orderIds.length === 0) return [];
  const { orders, checks } = await withTenant(db, tenantId, async (trx) => ({
    orders: await trx
      .selectFrom('orders')
      .select([
        'id',
        'order_number',
        'tracking_number',
        'status',
        'store_id',
        'platform',
        'shipping_provider',
        'payment_method',
        'item_count',
        'line_count',
        'scanned_at',
        'scanned_by',
      ])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...orderIds])
      .execute(),
    checks: await trx
      .selectFrom('scan_checks')
      .select(['order_id', 'status', 'picker_id', 'scanned_units', 'required_units'])
      .where('tenant_id', '=', tenantId)
      .where('order_id', 'in', [...orderIds])
      .execute(),
  }));
  const byId = new Map(orders.map((row) => [row.id, row]));
  const checkOf = new Map(checks.map((row) => [row.order_id, row]));
  const names = await userNames(db, tenantId, [
    ...orders.map((row) => row.scanned_by),
    ...checks.map((row) => row.picker_id),
  ]);
  return orderIds.map((id) => {
    const row = byId.get(id);
    const check = checkOf.get(id);
    return {
      id,
      order_number: row?.order_number ?? null,
      tracking_number: row?.tracking_number ?? null,
      status: row?.status ?? null,
      store_id: row?.store_id ?? null,
      platform: row?.platform ?? null,
      shipping_provider: row?.shipping_provider ?? null,
      payment_method: row?.payment_method ?? null,
      item_count: row?.item_count ?? 0,
      line_count: row?.line_count ?? 0,
      scanned_at: iso(row?.scanned_at ?? null),
      scanned_by: userAnswer(names, row?.scanned_by ?? null),
      check: check
        ? {
            status: check.status,
            picker: userAnswer(names, check.picker_id),
            scanned_units: check.scanned_units,
            required_units: check.required_units,
          }
        : null,
    };
  });
}

/**
 * A batch as its stream has it (never behind a change just made), its orders as the board has them, and its
 * history. Undefined when the account has no such batch.
 */
export async function batchDetail(
  deps: Pick<BatchDeps, 'db' | 'store'>,
  tenantId: string,
  batchId: string,
): Promise<BatchDetail | undefined> {
  const { state, timeline } = await loadBatch(deps.store, tenantId, batchId);
  if (state.status === 'none') return undefined;
  const orders = await batchOrders(deps.db, tenantId, state.orderIds);
  const names = await userNames(deps.db, tenantId, [
    state.pickerId,
    ...timeline.map((entry) => entry.userId),
  ]);
  const created = timeline[0];
  const closed = [...timeline].reverse().find((entry) => entry.type === 'BatchClosed');
  return {
    ...batchAnswerOfState(state, names, {
      createdBy: created?.userId ?? null,
      createdAt: created?.at ?? new Date(0).toISOString(),
      closedAt: closed?.at ?? null,
      scanned: orders.filter((order) => (SCANNED_STATUSES as readonly string[]).includes(order.status ?? ''))
        .length,
    }),
    orders,
    timeline: timeline.map((entry) => ({
      type: entry.type,
      at: entry.at,
      user: userAnswer(names, entry.userId),
      data: entry.data as Record<string, unknown>,
    })),
  };
}

export function batchAnswerOfState(
  state: Exclude<BatchState, { status: 'none' }>,
  names: ReadonlyMap<string, string>,
  extra: { createdBy: string | null; createdAt: string; closedAt: string | null; scanned: number },
): BatchAnswer {
  return {
    id: state.batchId,
    number: state.number,
    label: state.label,
    name: state.name,
    type: state.batchType,
    status: state.status,
    picker: userAnswer(names, state.pickerId),
    date: state.date,
    max_orders: state.maxOrders,
    split: state.split,
    group: state.group,
    source: state.source,
    config_id: state.configId,
    total_orders: state.orderIds.length,
    scanned_orders: extra.scanned,
    created_by: userAnswer(names, extra.createdBy),
    created_at: extra.createdAt,
    closed_at: extra.closedAt,
  };
}

// ---- orders waiting for a batch ----

const WAITING_SORTS = [
  'order_number',
  'paid_at',
  'ordered_at',
  'shipping_provider',
  'payment_method',
] as const;
export const WaitingQuery = gridQuery(WAITING_SORTS, {
  order_number: TextFilter,
  tracking_number: TextFilter,
  shipping_provider: TextFilter,
  payment_method: TextFilter,
  status: setFilter(['new', 'unscan'] as const),
  platform: TextFilter,
  paid_at: DateFilter,
}).extend({
  /** Orders a batch of this type takes: pre-orders for a pre-order batch, the others for a normal one. */
  type: z.enum(BATCH_TYPES).optional(),
  store_id: z.string().max(64).optional(),
});
export type WaitingQuery = z.infer<typeof WaitingQuery>;

export const WaitingRow = z.object({
  id: z.string(),
  order_number: z.string(),
  tracking_number: z.string().nullable(),
  status: z.enum(ORDER_STATUSES),
  store_id: z.string(),
  platform: z.string(),
  shipping_provider: z.string().nullable(),
  payment_method: z.string(),
  pre_order: z.boolean(),
  item_count: z.number().int(),
  line_count: z.number().int(),
  ordered_at: z.string(),
  paid_at: z.string().nullable(),
});

export async function waitingPage(db: Kysely<Database>, tenantId: string, query: WaitingQuery) {
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`o.tenant_id = ${tenantId}`,
    sql<SqlBool>`o.status IN ('new', 'unscan')`,
    sql<SqlBool>`o.batch_id IS NULL`,
    sql<SqlBool>`NOT EXISTS (
      SELECT 1 FROM batch_claims c WHERE c.tenant_id = o.tenant_id AND c.order_id = o.id
        AND (c.confirmed OR c.claimed_at > now() - interval '10 minutes'))`,
  ];
  if (query.type) where.push(sql<SqlBool>`o.pre_order = ${query.type === 'pre-order'}`);
  if (query.store_id) where.push(sql<SqlBool>`o.store_id = ${query.store_id}`);
  const filters = query.filterModel;
  if (filters.order_number) where.push(textWhere(sql`o.order_number`, filters.order_number));
  if (filters.tracking_number) {
    where.push(textWhere(sql`coalesce(o.tracking_number, '')`, filters.tracking_number));
  }
  if (filters.shipping_provider) {
    where.push(textWhere(sql`coalesce(o.shipping_provider, '')`, filters.shipping_provider));
  }
  if (filters.payment_method) where.push(textWhere(sql`o.payment_method`, filters.payment_method));
  if (filters.platform) where.push(textWhere(sql`o.platform`, filters.platform));
  if (filters.status) where.push(setWhere(sql`o.status`, filters.status.values));
  if (filters.paid_at) where.push(dateWhere(sql`o.paid_at`, filters.paid_at));
  const search = query.search?.trim();
  if (search) {
    where.push(searchWhere([sql`o.order_number`, sql`coalesce(o.tracking_number, '')`], search));
  }
  const sorts = {
    order_number: sql`o.order_number`,
    paid_at: sql`o.paid_at`,
    ordered_at: sql`o.ordered_at`,
    shipping_provider: sql`o.shipping_provider`,
    payment_method: sql`o.payment_method`,
  };
  const condition = allOf(where);
  const order = sql.join([
    ...sortTerms(query.sortModel, sorts),
    sql`coalesce(o.paid_at, o.ordered_at)`,
    sql`o.order_number`,
    sql`o.id`,
  ]);
  const { limit, offset } = pageWindow(query);
  return withTenant(db, tenantId, async (trx) => {
    const page = await sql<{
      id: string;
      order_number: string;
      tracking_number: string | null;
      status: (typeof ORDER_STATUSES)[number];
      store_id: string;
      platform: string;
      shipping_provider: string | null;
      payment_method: string;
      pre_order: boolean;
      item_count: number;
      line_count: number;
      ordered_at: Date;
      paid_at: Date | null;
    }>`
      SELECT o.id, o.order_number, o.tracking_number, o.status, o.store_id, o.platform, o.shipping_provider,
        o.payment_method, o.pre_order, o.item_count, o.line_count, o.ordered_at, o.paid_at
      FROM orders o WHERE ${condition} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{ n: string }>`SELECT count(*) AS n FROM orders o WHERE ${condition}`.execute(
      trx,
    );
    return {
      lastRow: Number(count.rows[0]?.n ?? 0),
      rows: page.rows.map((row) => ({
        ...row,
        ordered_at: row.ordered_at.toISOString(),
        paid_at: iso(row.paid_at),
      })),
    };
  });
}

// ---- routes ----

const PickerAnswer = z.object({ id: z.string(), name: z.string(), email: z.string() });

export const batchListRoutes: FastifyPluginAsyncZod<BatchDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/api/orders/batches',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Batches, ag-grid Infinite Row Model: sort by number, label, name, date, status, type, total orders, created; filter by label, name, group, status, type, created; search label, name, group',
        querystring: BatchListQuery,
        response: { 200: Ok(GridPage(BatchAnswer)), ...refusals },
      },
    },
    async (request) => ok(request, await batchPage(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/orders/batches/waiting',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Orders waiting for a batch (new or unscan, in no batch), ag-grid Infinite Row Model; type=pre-order lists pre-orders only, type=normal the others',
        querystring: WaitingQuery,
        response: { 200: Ok(GridPage(WaitingRow)), ...refusals },
      },
    },
    async (request) => ok(request, await waitingPage(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/orders/batches/pickers',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'The active users of the account a batch can be given to',
        response: { 200: Ok(z.array(PickerAnswer)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await db
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name', 'email'])
        .where('tenant_id', '=', tenantId)
        .where('status', '=', 'active')
        .orderBy('first_name')
        .orderBy('email')
        .execute();
      return ok(
        request,
        rows.map((row) => ({
          id: row.id,
          name: `${row.first_name} ${row.last_name}`.trim() || row.email,
          email: row.email,
        })),
      );
    },
  );

  app.get(
    '/api/orders/batches/:id',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'One batch: its orders as they are now (status, scan check) and its history',
        params: IdParams,
        response: { 200: Ok(BatchDetail), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const detail = await batchDetail(deps, tenantId, batchIdOf(request.params.id));
      if (!detail) throw notFound();
      return ok(request, detail);
    },
  );
};
