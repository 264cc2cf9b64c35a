import { performance } from 'node:perf_hooks';
import { StockListQuery } from '@api/contracts/inventory-stock';
import { ensurePackages } from '@commands/accounts/seed';
import { parseAdjustmentFile } from '@commands/inventory/adjustment-file';
import { applyUpload, resolveRows } from '@commands/inventory/stock-upload';
import { openUpload } from '@commands/support/sheet-uploads';
import { stockEvents } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { stockList as listStock, stockListSql } from '@projections/stock.queries';
import { type Kysely, sql } from 'kysely';
import type pg from 'pg';
import { timed } from './load';

/**
 * Two stock budgets measured through the API's own functions:
 *
 * - the stock list (`listStock`, what GET /api/inventory/stock runs, its capped count included): 100,000 master
 *   codes (100 of them combos of two components) × 3 warehouses, the read model seeded straight with SQL; pages of
 *   100 of one warehouse sorted by available, both directions, at offsets from the first page to 5,000 rows in;
 * - a bulk adjustment upload of 10,000 rows, from the file's bytes to committed events: parse, resolve the codes,
 *   apply (8 stocks at a time, each row its own command with its idempotency key), as POST
 *   /api/inventory/stock/upload does in the background.
 */

export const STOCK_LIST_TENANT = 'bench-stock-list';
export const BULK_TENANT = 'bench-bulk';
const MASTER_CODES = 100_000;
const COMBOS = 100;
const WAREHOUSES = ['WH-A', 'WH-B', 'WH-C'];
const PAGE = 100;

async function tenant(db: Kysely<Database>, id: string): Promise<void> {
  await ensurePackages(db);
  await db
    .insertInto('tenants')
    .values({ id, name: id, country: 'MY', package_id: 'growth', status: 'active' })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

async function warehouses(db: Kysely<Database>, tenantId: string, codes: string[]): Promise<string[]> {
  const rows = await sql<{ id: string }>`
    INSERT INTO warehouses (id, tenant_id, kind, code, name, is_default)
    SELECT gen_random_uuid(), ${tenantId}, 'warehouse', code, 'Warehouse ' || code, ord = 1
    FROM unnest(${codes}::text[]) WITH ORDINALITY AS c(code, ord)
    RETURNING id`.execute(db);
  return rows.rows.map((row) => row.id);
}

export interface StockListSeed {
  warehouseIds: string[];
  levels: number;
  seconds: number;
  plan: string;
}

/** The read model of a large account, written directly: master codes, combos, and a level per code per warehouse. */
export async function seedStockList(db: Kysely<Database>): Promise<StockListSeed> {
  const { value: warehouseIds, seconds } = await timed(async () => {
    await tenant(db, STOCK_LIST_TENANT);
    const ids = await warehouses(db, STOCK_LIST_TENANT, WAREHOUSES);
    await sql`
      INSERT INTO master_codes (id, tenant_id, code, name, type, seller_sku)
      SELECT gen_random_uuid(), ${STOCK_LIST_TENANT}, 'MC-' || lpad(n::text, 6, '0'), 'Item ' || n,
        CASE WHEN n > ${MASTER_CODES - COMBOS} THEN 'combo' ELSE 'standard' END, 'SKU-' || n
      FROM generate_series(1, ${MASTER_CODES}) AS n`.execute(db);
    // Each combo: two standard master codes, 2 of the first and 1 of the second.
    await sql`
      INSERT INTO combo_items (tenant_id, combo_id, component_id, quantity, position)
      SELECT ${STOCK_LIST_TENANT}, c.id, s.id, p.quantity, p.position
      FROM (SELECT id, row_number() OVER (ORDER BY code) AS k FROM master_codes
            WHERE tenant_id = ${STOCK_LIST_TENANT} AND type = 'combo') c
      CROSS JOIN (VALUES (1, 2), (2, 1)) AS p(position, quantity)
      JOIN master_codes s ON s.tenant_id = ${STOCK_LIST_TENANT} AND s.code = 'MC-' || lpad((c.k * 10 + p.position)::text, 6, '0')`.execute(
      db,
    );
    // On hand spread over -50..949 (a few oversold), some reserved.
    await sql`
      INSERT INTO stock_levels (tenant_id, master_code_id, warehouse_id, on_hand, reserved, in_process, on_hold,
        pos_on_hold, supplier_on_hold, incoming, last_movement_at, movements, last_revision, last_position)
      SELECT ${STOCK_LIST_TENANT}, m.id::text, w.id::text,
        (abs(hashtext(m.id::text || w.id::text)) % 1000) - 50, abs(hashtext(w.id::text || m.id::text)) % 20,
        0, 0, 0, 0, 0,
        now() - (abs(hashtext(m.code)) % 100000) * interval '1 minute', 1, 0, 0
      FROM master_codes m CROSS JOIN warehouses w
      WHERE m.tenant_id = ${STOCK_LIST_TENANT} AND m.type = 'standard' AND w.tenant_id = ${STOCK_LIST_TENANT}`.execute(
      db,
    );
    for (const table of ['stock_levels', 'master_codes', 'combo_items', 'warehouses']) {
      await sql`VACUUM (ANALYZE) ${sql.table(table)}`.execute(db);
    }
    return ids;
  });
  const levels = await db
    .selectFrom('stock_levels')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', STOCK_LIST_TENANT)
    .executeTakeFirstOrThrow();
  // The plan of a page as listStock runs it, its levels branch in index order.
  const { page } = stockListSql(
    { tenantId: STOCK_LIST_TENANT, placeIds: [warehouseIds[0]!], negativeOnly: false },
    StockListQuery.parse({
      warehouse_id: warehouseIds[0],
      endRow: String(PAGE),
      sortModel: JSON.stringify([{ colId: 'available', sort: 'desc' }]),
    }),
  );
  const plan = await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${page}`.execute(db);
  return {
    warehouseIds,
    levels: Number(levels.n),
    seconds,
    plan: plan.rows
      .map((row) => row['QUERY PLAN'].trim())
      .filter((line) => /Scan|Limit|Merge|Append/.test(line))
      .map((line) => line.replace(/\s+\(cost=.*$/, ''))
      .join('; '),
  };
}

export interface StockListResult {
  queries: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

/** Times `queries` stock list pages (one warehouse, sorted by available) from a fixed pseudo-random sequence. */
export async function measureStockList(
  db: Kysely<Database>,
  seed: StockListSeed,
  queries: number,
): Promise<StockListResult> {
  let state = 0x5eed_1234;
  const random = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const offsets = [0, 0, 0, 100, 200, 500, 1000, 2500, 5000];
  const ask = async () => {
    const warehouseId = seed.warehouseIds[Math.floor(random() * seed.warehouseIds.length)]!;
    const startRow = offsets[Math.floor(random() * offsets.length)]!;
    const sort = random() < 0.5 ? 'asc' : 'desc';
    const query = StockListQuery.parse({
      warehouse_id: warehouseId,
      startRow: String(startRow),
      endRow: String(startRow + PAGE),
      sortModel: JSON.stringify([{ colId: 'available', sort }]),
    });
    const started = performance.now();
    const page = await listStock(db, STOCK_LIST_TENANT, query);
    const ms = performance.now() - started;
    const values = page.rows.map((row) => row.available);
    const sorted = [...values].sort((a, b) => (sort === 'asc' ? a - b : b - a));
    if (page.rows.length !== PAGE || values.join() !== sorted.join()) {
      throw new Error(`stock list page at ${startRow} (${sort}) came back wrong: ${page.rows.length} rows`);
    }
    // 100,000 rows in the warehouse: more than the count's cap, so the row count stays open (-1).
    if (page.lastRow !== -1) throw new Error(`stock list answered lastRow ${page.lastRow}, expected -1`);
    return ms;
  };
  for (let i = 0; i < 10; i++) await ask();
  const times: number[] = [];
  for (let i = 0; i < queries; i++) times.push(await ask());
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!;
  return { queries, medianMs: at(0.5), p95Ms: at(0.95), maxMs: times.at(-1)! };
}

export interface BulkAdjustResult {
  rows: number;
  stocks: number;
  parseSeconds: number;
  seconds: number;
  rowsPerSec: number;
}

/**
 * A 10,000-row adjustment file over `stocks` stocks (2,000 master codes × 2 warehouses, five rows each: add, add,
 * deduct, set, add) from bytes to committed events, timed as a whole; every row must have appended its event.
 */
export async function measureBulkAdjust(
  pool: pg.Pool,
  db: Kysely<Database>,
  attempt: number,
  rows = 10_000,
): Promise<BulkAdjustResult> {
  const codes = 2_000;
  // A fresh account per attempt: the same file in the same account would only replay.
  const tenantId = `${BULK_TENANT}-${attempt}`;
  await tenant(db, tenantId);
  await warehouses(db, tenantId, ['BULK-A', 'BULK-B']);
  await sql`
    INSERT INTO master_codes (id, tenant_id, code, name, type)
    SELECT gen_random_uuid(), ${tenantId}, 'B-' || n, 'Bulk item ' || n, 'standard'
    FROM generate_series(0, ${codes - 1}) AS n`.execute(db);
  const modes = ['add,10', 'add,5', 'deduct,3', 'set,20', 'add,1'];
  const lines = ['master_code,warehouse_code,mode,quantity,reason'];
  for (let i = 0; i < rows; i++) {
    const stock = i % (codes * 2);
    const round = Math.floor(i / (codes * 2));
    lines.push(
      `B-${stock % codes},BULK-${stock < codes ? 'A' : 'B'},${modes[round % modes.length]},bench row ${i}`,
    );
  }
  const bytes = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(stockEvents));
  const userId = '00000000-0000-4000-8000-00000000b0b0';
  try {
    let parseSeconds = 0;
    const run = await timed(async () => {
      const parsing = await timed(() => parseAdjustmentFile(bytes, 'bench.csv'));
      parseSeconds = parsing.seconds;
      const parsed = parsing.value;
      if (!parsed.ok || parsed.problems.length > 0)
        throw new Error(`the bench file did not parse: ${JSON.stringify(parsed).slice(0, 200)}`);
      const { resolved, problems } = await resolveRows(db, tenantId, parsed.rows);
      if (problems.length > 0) throw new Error(`the bench file has ${problems.length} unknown codes`);
      const id = await openUpload(
        db,
        { kind: 'stock_adjustment', tenantId, userId, filename: 'bench.csv', bytes },
        resolved.length,
      );
      return applyUpload(
        { db, store },
        {
          id,
          tenantId,
          userId,
          filename: 'bench.csv',
          hash: parsed.hash,
          rows: resolved,
          refuseNegative: true,
        },
        () => false,
        { error: (...args: unknown[]) => console.error(...args) },
      );
    });
    const outcome = run.value;
    const events = await db
      .selectFrom('es_events')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('stream_id', 'like', `stock-${tenantId}.%`)
      .executeTakeFirstOrThrow();
    if (outcome.status !== 'complete' || outcome.applied !== rows || Number(events.n) !== rows) {
      throw new Error(
        `the bulk upload ended ${outcome.status} with ${outcome.applied} applied, ${outcome.failed} failed, ${events.n} events`,
      );
    }
    return {
      rows,
      stocks: Math.min(rows, codes * 2),
      parseSeconds,
      seconds: run.seconds,
      rowsPerSec: rows / run.seconds,
    };
  } finally {
    await store.close();
  }
}
