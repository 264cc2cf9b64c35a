import type {
  BatchAnswer,
  BatchListQuery,
  BatchOrderAnswer,
  PickerAnswer,
  UserAnswer,
  WaitingQuery,
  WaitingRow,
} from '@api/contracts/batches';
import { buildPickList, type PickList, type PickListFilter, type PickOrder } from '@domain/batches/pick-list';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { type BatchRow, SCANNED_STATUSES } from './batches';
import { componentsOfCombos } from './inventory/combos';
import { rackNamesOf } from './inventory/racks';
import { allOf, dateWhere, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from './runtime/grid';

/**
 * What the console reads of batches (projections/batches.ts keeps the tables): the batch list, the orders of a batch
 * and the orders waiting for one as the order board has them, and the account's users a batch names.
 */

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// ---- users a batch names ----

/** The display names of the account's users (first and last name, else the email). */
export async function userNames(
  db: Kysely<Database>,
  tenantId: string,
  ids: readonly (string | null)[],
): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))].filter((id) => UUID.test(id));
  const rows = unique.length
    ? await db
        .selectFrom('users')
        .select(['id', 'first_name', 'last_name', 'email'])
        .where('tenant_id', '=', tenantId)
        .where('id', 'in', unique)
        .execute()
    : [];
  return new Map(rows.map((row) => [row.id, `${row.first_name} ${row.last_name}`.trim() || row.email]));
}

export const userAnswer = (names: ReadonlyMap<string, string>, id: string | null): UserAnswer | null =>
  id ? { id, name: names.get(id) ?? null } : null;

/** The account's active users, whom a batch can be given to. */
export async function activePickers(db: Kysely<Database>, tenantId: string): Promise<PickerAnswer[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email'])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'active')
    .orderBy('first_name')
    .orderBy('email')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: `${row.first_name} ${row.last_name}`.trim() || row.email,
    email: row.email,
  }));
}

/** The id of the account's active user `userId`, if it is one. */
export async function activeUserId(db: Kysely<Database>, tenantId: string, userId: string) {
  if (!UUID.test(userId)) return undefined;
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', userId.toLowerCase())
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.id;
}

/** The country the account is in: what its time zone, and so "today" for a batch, is. */
export async function tenantCountry(
  db: Kysely<Database>,
  tenantId: string,
): Promise<string | null | undefined> {
  const row = await db.selectFrom('tenants').select('country').where('id', '=', tenantId).executeTakeFirst();
  return row?.country;
}

/** Order numbers of the account's orders, from the order board's read model. */
export async function orderNumbers(
  db: Kysely<Database>,
  tenantId: string,
  orderIds: readonly string[],
): Promise<Map<string, string>> {
  if (orderIds.length === 0) return new Map();
  const rows = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('orders')
      .select(['id', 'order_number'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...new Set(orderIds)])
      .execute(),
  );
  return new Map(rows.map((row) => [row.id, row.order_number]));
}

// ---- the batch list ----

type BatchRowWithCount = BatchRow & { scanned_orders: number };

const scannedCount = sql<number>`(
  SELECT count(*)::int4 FROM orders o
  WHERE o.tenant_id = b.tenant_id AND o.id = ANY (b.order_ids) AND o.status IN (${sql.join([...SCANNED_STATUSES])}))`;

export async function batchPage(
  db: Kysely<Database>,
  tenantId: string,
  query: BatchListQuery,
): Promise<{ rows: BatchAnswer[]; lastRow: number }> {
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

// ---- the orders of one batch ----

/** The orders of a batch as the order board has them now, with their scan checks; in the batch's order. */
export async function batchOrders(
  db: Kysely<Database>,
  tenantId: string,
  orderIds: readonly string[],
): Promise<BatchOrderAnswer[]> {
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

// ---- orders waiting for a batch ----

export async function waitingPage(
  db: Kysely<Database>,
  tenantId: string,
  query: WaitingQuery,
): Promise<{ rows: WaitingRow[]; lastRow: number }> {
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
    const page = await sql<
      Omit<WaitingRow, 'ordered_at' | 'paid_at'> & { ordered_at: Date; paid_at: Date | null }
    >`
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

// ---- pick lists ----

/** Orders of a batch cancelled or trashed since it was made: nobody should pick them. */
const LEFT_OUT = ['cancelled', 'trash', 'refunded', 'returned'];

/** The pick list of the batch's orders, from the order board's read model and the master codes' rack locations. */
export async function batchPickList(
  db: Kysely<Database>,
  tenantId: string,
  orderIds: readonly string[],
  filter: PickListFilter,
): Promise<PickList> {
  if (orderIds.length === 0) return buildPickList([], filter, new Map(), new Map());
  const { orders, lines } = await withTenant(db, tenantId, async (trx) => ({
    orders: await trx
      .selectFrom('orders')
      .select(['id', 'order_number', 'tracking_number', 'warehouse_id', 'status'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', [...orderIds])
      .where('status', 'not in', LEFT_OUT)
      .execute(),
    lines: await trx
      .selectFrom('order_lines')
      .select([
        'order_id',
        'line_id',
        'master_code_id',
        'sku',
        'seller_sku',
        'name',
        'variation',
        'quantity',
        'gift',
        'bin_number',
        'serial_numbers',
      ])
      .where('tenant_id', '=', tenantId)
      .where('order_id', 'in', [...orderIds])
      .where('removed', '=', false)
      .orderBy('order_id')
      .orderBy('position')
      .execute(),
  }));
  const linesOf = new Map<string, PickOrder['lines']>();
  for (const line of lines) {
    const list = linesOf.get(line.order_id) ?? [];
    list.push({
      lineId: line.line_id,
      masterCodeId: line.master_code_id,
      sku: line.sku,
      sellerSku: line.seller_sku,
      name: line.name,
      ...(line.variation ? { variation: line.variation } : {}),
      quantity: line.quantity,
      gift: line.gift,
      binNumber: line.bin_number,
      serialNumbers: line.serial_numbers,
    });
    linesOf.set(line.order_id, list);
  }
  const pickOrders: PickOrder[] = orders.map((order) => ({
    orderId: order.id,
    orderNumber: order.order_number,
    trackingNumber: order.tracking_number,
    warehouseId: order.warehouse_id,
    lines: linesOf.get(order.id) ?? [],
  }));
  const lineMasterIds = [
    ...new Set(lines.flatMap((line) => (line.master_code_id ? [line.master_code_id] : []))),
  ];
  // A combo is picked as its components: their codes, names and racks are what the picker needs.
  const combos = await componentsOfCombos(db, tenantId, lineMasterIds);
  const masterIds = [
    ...new Set([...lineMasterIds, ...[...combos.values()].flat().map((part) => part.masterCodeId)]),
  ];
  const warehouses = [...new Set(orders.map((order) => order.warehouse_id))];
  const [masters, locations] = masterIds.length
    ? await Promise.all([
        db
          .selectFrom('master_codes')
          .select(['id', 'code', 'name', 'seller_sku'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', masterIds)
          .execute(),
        rackNamesOf(db, tenantId, masterIds, warehouses),
      ])
    : [[], new Map<string, string[]>()];
  return buildPickList(
    pickOrders,
    filter,
    new Map(masters.map((row) => [row.id, { code: row.code, name: row.name, sellerSku: row.seller_sku }])),
    locations,
    combos,
  );
}
