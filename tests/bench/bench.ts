import { createDb, createPool } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { ProjectionEngine } from '@projections/runtime/engine';
import { sql } from 'kysely';
import { measureApiMemory } from './api-memory';
import { measureAsOfValuation, seedAsOfValuation } from './as-of';
import {
  assertDefaultTypeParsers,
  type Contender,
  emmettContender,
  oursContender,
  rawInsertContender,
} from './contenders';
import { type CpuSplit, cpuSampler, formatPerOperation, formatShares, sumSplits, withChild } from './cpu';
import { measureFeedRead } from './feed';
import { benchRegistry } from './fixtures';
import { measureImportOrders } from './import-orders';
import { leastDisturbed, median, runWriters, type Timed, timed } from './load';
import {
  benchRowsProjection,
  countBenchRows,
  countEvents,
  createBenchRowsTable,
  measureCatchUpReads,
  seedLog,
} from './log';
import { formatLegs, measureOrderList, measureScanToBoard, seedOrderList } from './orders';
import { measurePublishListings } from './publish';
import { formatTable, log, perSec, type Row, ratio, runMain } from './report';
import { measureReports, seedReports } from './reports';
import { startBenchServer } from './server';
import { measureHotStreamCommand, measurePointInTime, seedStockHistory } from './stock';
import { measureBulkAdjust, measureStockList, seedStockList } from './stock-list';
import { measureStockToChannel, simulateOversold } from './stock-push';
import { measureWebhookDelivery } from './webhooks';

/**
 * `npm run bench`: the budgets of ARCHITECTURE.md that concern the event store, measured in one process against one
 * embedded Postgres. Prints a table, then the figures as one line of JSON (the last line of stdout).
 *
 *   BENCH_SCALE   multiplies the durations and counts (default 1: each write measurement runs 6 s after a 1 s
 *                 warm-up; the log read and rebuilt holds 300,000 events)
 *   BENCH_ROUNDS  rounds of the three write measurements, in rotating order; the median is reported (default 3)
 *   BENCH_STRICT  when 1, exit with status 2 if a budget is missed
 *
 * The point-in-time query runs on one stock with 100,000 movements (and then stock adjustments on that same stream,
 * hotStreamCommandMs), the stock list over 100,000 master codes × 3 warehouses and the bulk upload on 10,000 rows
 * (BENCH_SCALE does not change these: they are the budgets' own sizes).
 */

const BUDGET = {
  appendVsRawInsert: 0.6,
  appendVsEmmett: 1.0,
  catchUpReadPerSec: 200_000,
  catchUpVsRawRead: 0.8,
  rebuildPerSec: 20_000,
  pointInTimeMs: 50,
  stockListP95Ms: 50,
  orderListP95Ms: 50,
  scanToBoardP99Ms: 100,
  commandToPushP99Ms: 100,
  apiSteadyRssMb: 300,
  stockToChannelP99Ms: 2_000,
  /** Kedai's push oversells at most this share of what a 15-minute poll does. */
  oversoldVsPolling: 0.05,
  reportP95Ms: 200,
  feedReadPerSec: 50_000,
  webhookDeliveryP99Ms: 1_000,
  asOfStockValuationMs: 2_000,
};

/** ARCHITECTURE.md: command → read model → websocket push, p99 ≤ 100 ms at 500 commands/s. */
const ARCHITECTURE_COMMANDS_PER_SEC = 500;
const SCALE = positiveNumber('BENCH_SCALE', 1);
const ROUNDS = Math.round(positiveNumber('BENCH_ROUNDS', 3));
const WRITERS = 8;
/** Pool of ours and of Emmett: one connection per writer plus slack (ours sends a NOTIFY every few ms). */
const POOL_SIZE = 10;
/** Each writer cycles over this many streams of its own (ours and Emmett alike), created during the warm-up. */
const STREAMS_PER_WRITER = 16;
const MEASURE_SECONDS = 6 * SCALE;
const WARM_UP_SECONDS = 1 * SCALE;
const LOG_EVENTS = Math.max(10_000, Math.round(300_000 * SCALE));
const READ_PAGE = 10_000;
const READ_PASSES = 3;
const REBUILD_BATCH = 5_000;
const STOCK_MOVEMENTS = 100_000;
const POINT_IN_TIME_QUERIES = 200;
const HOT_STREAM_COMMANDS = 50;
const STOCK_LIST_QUERIES = 50;
const BULK_ROWS = 10_000;
const ORDER_LIST_QUERIES = 200;
/** Listings the publish measurement publishes (× BENCH_SCALE). */
const PUBLISH_LISTINGS = 20;
/** The reports and feed budgets' own sizes (BENCH_SCALE does not change them). */
const REPORT_ORDERS = 1_000_000;
const REPORT_OPENS = 200;
const FEED_EVENTS = 1_000_000;
const AS_OF_MASTER_CODES = 100_000;

type Key = Contender['key'];
type Measured = Timed & { cpu: CpuSplit };

async function main(): Promise<number> {
  const bench = await startBenchServer();
  const cpu = cpuSampler(bench.dir);
  const closers: Array<() => Promise<unknown>> = [];
  try {
    await bench.server.createDatabase('kedai_bench');
    await bench.server.createDatabase('emmett_bench');
    const pool = createPool(bench.server.url('kedai_bench'), POOL_SIZE);
    const db = createDb(pool);
    closers.push(() => db.destroy());
    await migrateToLatest(db);
    await createBenchRowsTable(db);
    const store = new PostgresEventStore(pool, benchRegistry());
    closers.push(() => store.close());
    const streams = { streamsPerWriter: STREAMS_PER_WRITER };
    const raw = await rawInsertContender(bench.server.url('kedai_bench'));
    const emmett = await emmettContender(bench.server.url('emmett_bench'), POOL_SIZE, streams);
    closers.push(() => emmett.close());
    assertDefaultTypeParsers();
    const ours = oursContender(store, streams);

    // ---- writes: ROUNDS rounds; the order rotates so that each contender takes each slot in turn ----
    const contenders: Contender[] = [raw, ours, emmett];
    const results = new Map<Key, Measured[]>(contenders.map((c) => [c.key, []]));
    log(
      `writes: ${ROUNDS} rounds × 3 contenders, ${WRITERS} writers, ${+MEASURE_SECONDS.toFixed(2)} s each ` +
        `after a ${+WARM_UP_SECONDS.toFixed(2)} s warm-up`,
    );
    let sessions = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let slot = 0; slot < contenders.length; slot++) {
        const contender = contenders[(round + slot) % contenders.length]!;
        const what = `round ${round + 1} ${contender.label}`;
        const result = await leastDisturbed(what, async () => {
          const session = await contender.open(sessions++, WRITERS);
          try {
            await runWriters(session.writers, {
              seconds: WARM_UP_SECONDS,
              minPerWriter: 2 * STREAMS_PER_WRITER,
            });
            const before = cpu.sample();
            const measured = await runWriters(session.writers, { seconds: MEASURE_SECONDS });
            return { ...measured, cpu: cpu.split(before) };
          } finally {
            await session.close();
          }
        });
        results.get(contender.key)!.push(result);
        log(
          `${what.padEnd(30)} ${perSec(result.perSec).padStart(9)} (${result.operations} in ` +
            `${result.seconds.toFixed(2)} s; ${formatShares(result.cpu)}; ` +
            `${formatPerOperation(result.cpu, result.operations)})`,
        );
      }
    }
    const rates = (key: Key) => results.get(key)!.map((r) => r.perSec);
    const rawRate = median(rates('raw'));
    const oursRate = median(rates('ours'));
    const emmettRate = median(rates('emmett'));

    // ---- the log: fill it with big appends, then read it all ----
    const seed = await seedLog(store, db, LOG_EVENTS);
    const logSize = await countEvents(db);
    log(`seeded ${seed.seeded} events in ${seed.seconds.toFixed(1)} s; the log holds ${logSize}`);
    // What autovacuum does to a freshly written log before long: statistics, visibility map and hint bits.
    await sql`VACUUM (ANALYZE) es_events`.execute(db);
    assertDefaultTypeParsers();

    const reads = await measureCatchUpReads(store, pool, {
      logSize,
      pageSize: READ_PAGE,
      passes: READ_PASSES,
      cpu,
    });
    const catchUpRate = median(reads.ours.map((r) => r.perSec));
    const rawReadRate = median(reads.raw.map((r) => r.perSec));

    // ---- rebuild: a projection writing one row per event, replayed over the same log ----
    const engine = new ProjectionEngine({ db, store, projections: [benchRowsProjection] });
    const rebuild = await leastDisturbed('rebuild', async (n) => {
      const before = cpu.sample();
      const { value, seconds } = await timed(() =>
        engine.rebuild(benchRowsProjection.name, {
          rebuildId: `bench-${process.pid}-${n}`,
          batchSize: REBUILD_BATCH,
        }),
      );
      const split = cpu.split(before);
      const rows = await countBenchRows(db);
      if (rows !== logSize || value.eventsApplied !== BigInt(logSize)) {
        throw new Error(
          `the rebuild wrote ${rows} rows, applied ${value.eventsApplied} events; the log holds ${logSize}`,
        );
      }
      return { operations: rows, seconds, perSec: rows / seconds, cpu: split };
    });
    const rebuildRate = rebuild.perSec;
    log(
      `rebuild: ${rebuild.operations} rows in ${rebuild.seconds.toFixed(2)} s (${perSec(rebuildRate)}; ${formatShares(rebuild.cpu)})`,
    );

    // ---- point in time: the stock of one master code with 100,000 movements, as of random past instants ----
    const history = await seedStockHistory(pool, db, STOCK_MOVEMENTS);
    log(
      `stock history: ${STOCK_MOVEMENTS} movements appended in ${history.seedSeconds.toFixed(1)} s, ` +
        `projected in ${history.projectSeconds.toFixed(1)} s; plan: ${history.plan}`,
    );
    const pointInTime = await leastDisturbed('point in time', async () => {
      const before = cpu.sample();
      const result = await measurePointInTime(db, history, POINT_IN_TIME_QUERIES);
      return { ...result, cpu: cpu.split(before) };
    });
    log(
      `point in time: median ${pointInTime.medianMs.toFixed(2)} ms, p95 ${pointInTime.p95Ms.toFixed(2)} ms, ` +
        `max ${pointInTime.maxMs.toFixed(2)} ms over ${pointInTime.queries} queries`,
    );

    // ---- a stock command on that same 100,000-movement stream (after the point-in-time check: it appends) ----
    const hotStream = await leastDisturbed('hot stream command', async () => {
      const before = cpu.sample();
      const result = await measureHotStreamCommand(pool, HOT_STREAM_COMMANDS);
      return { ...result, cpu: cpu.split(before) };
    });
    log(
      `hot stream command: median ${hotStream.medianMs.toFixed(2)} ms, p95 ${hotStream.p95Ms.toFixed(2)} ms, ` +
        `max ${hotStream.maxMs.toFixed(2)} ms over ${hotStream.commands} adjustments of a ${hotStream.streamLength}-event stream`,
    );

    // ---- the stock list of a large account, and a bulk adjustment upload ----
    const listSeed = await seedStockList(db);
    log(
      `stock list: ${listSeed.levels} levels (100,000 master codes × 3 warehouses) seeded in ` +
        `${listSeed.seconds.toFixed(1)} s; plan: ${listSeed.plan}`,
    );
    const stockList = await leastDisturbed('stock list', async () => {
      const before = cpu.sample();
      const result = await measureStockList(db, listSeed, STOCK_LIST_QUERIES);
      return { ...result, cpu: cpu.split(before) };
    });
    log(
      `stock list: median ${stockList.medianMs.toFixed(2)} ms, p95 ${stockList.p95Ms.toFixed(2)} ms, ` +
        `max ${stockList.maxMs.toFixed(2)} ms over ${stockList.queries} pages`,
    );
    const bulk = await leastDisturbed('bulk adjust', async (n) => {
      const before = cpu.sample();
      const result = await measureBulkAdjust(pool, db, n, BULK_ROWS);
      return { ...result, cpu: cpu.split(before) };
    });
    log(
      `bulk adjust: ${bulk.rows} rows over ${bulk.stocks} stocks in ${bulk.seconds.toFixed(2)} s ` +
        `(${perSec(bulk.rowsPerSec)}; parse ${bulk.parseSeconds.toFixed(3)} s)`,
    );

    // ---- the order board: a list page over 1,000,000 orders; scan → board count in another websocket client ----
    const orderSeed = await seedOrderList(db);
    log(
      `order list: ${orderSeed.orders} orders seeded in ${orderSeed.seconds.toFixed(1)} s; plan: ${orderSeed.plan}`,
    );
    const orderList = await leastDisturbed('order list', async () => {
      const before = cpu.sample();
      const result = await measureOrderList(db, ORDER_LIST_QUERIES);
      return { ...result, cpu: cpu.split(before) };
    });
    log(
      `order list: median ${orderList.medianMs.toFixed(2)} ms, p95 ${orderList.p95Ms.toFixed(2)} ms, ` +
        `max ${orderList.maxMs.toFixed(2)} ms over ${orderList.count} pages`,
    );
    const scanToBoard = await leastDisturbed('scan to board', async (n) => {
      const before = cpu.sample();
      const result = await measureScanToBoard(bench.server.url('kedai_bench'), n);
      return { ...result, cpu: withChild(cpu.split(before), result.projectorCpuSeconds) };
    });
    log(
      `scan to board: p50 ${scanToBoard.medianMs.toFixed(1)} ms, p99 ${scanToBoard.p99Ms.toFixed(1)} ms over ` +
        `${scanToBoard.count} scans at ${scanToBoard.scansPerSec.toFixed(0)}/s (command p99 ${scanToBoard.command.p99Ms.toFixed(1)} ms)`,
    );
    // The architecture's budget for the same path: command → read model → websocket push at 500 commands/s.
    const commandToPush = await leastDisturbed('command to push', async (n) => {
      const before = cpu.sample();
      const result = await measureScanToBoard(
        bench.server.url('kedai_bench'),
        n,
        ARCHITECTURE_COMMANDS_PER_SEC,
      );
      return { ...result, cpu: withChild(cpu.split(before), result.projectorCpuSeconds) };
    });
    log(
      `command to push: p50 ${commandToPush.medianMs.toFixed(1)} ms, p99 ${commandToPush.p99Ms.toFixed(1)} ms over ` +
        `${commandToPush.count} scans at ${commandToPush.scansPerSec.toFixed(0)}/s (command p99 ${commandToPush.command.p99Ms.toFixed(1)} ms; ` +
        `${formatLegs(commandToPush.legs)})`,
    );

    const importOrders = await measureImportOrders(bench);

    // ---- the stock push: a change to every linked store's sandbox, and what it saves in oversold units ----
    const stockPush = await measureStockToChannel(bench, { seconds: 30 * SCALE });
    const oversold = simulateOversold({ syncDelayMs: stockPush.stockToChannelP99Ms });
    const oversoldPolling = simulateOversold({ pollEveryMs: 15 * 60 * 1000 });

    // ---- listings of 10 variants published to 5 sandbox stores through the publish saga ----
    const publish = await measurePublishListings(bench, { listings: Math.round(PUBLISH_LISTINGS * SCALE) });

    // ---- the sales and top-SKU reports over 1,000,000 orders, 30-day ranges ----
    await bench.server.createDatabase('kedai_reports');
    const reportsDb = createDb(createPool(bench.server.url('kedai_reports'), 4));
    closers.push(() => reportsDb.destroy());
    await migrateToLatest(reportsDb);
    const reportSeed = await seedReports(reportsDb, REPORT_ORDERS);
    const reports = await measureReports(reportsDb, REPORT_OPENS);
    log(`reports: p95 ${reports.reportP95Ms} ms, median ${reports.medianMs} ms over ${reports.opens} opens`);

    // ---- stock valuation of 100,000 master codes as of a past date ----
    const asOfSeed = await seedAsOfValuation(reportsDb, AS_OF_MASTER_CODES);
    const asOf = await measureAsOfValuation(reportsDb);
    log(`as-of valuation: median ${asOf.asOfStockValuationMs} ms (runs ${asOf.runsMs.join(' / ')})`);

    // ---- one app reading the integrator feed from the start of a 1,000,000-event log, over HTTP ----
    const feed = await measureFeedRead(bench, { events: FEED_EVENTS });
    log(`feed: ${perSec(feed.feedReadPerSec)} over ${feed.events} events in ${feed.pages} pages`);

    // ---- webhooks: events appended at 200/s, each delivered signed to a receiver in its own process ----
    const webhooks = await measureWebhookDelivery(bench, { seconds: 30 * SCALE, eventsPerSec: 200 });
    log(
      `webhooks: p50 ${webhooks.webhookDeliveryP50Ms} ms, p99 ${webhooks.webhookDeliveryP99Ms} ms, ` +
        `${webhooks.acknowledged}/${webhooks.events} acknowledged`,
    );

    // ---- the API's memory: npm start's process on a log of 1,000,000 events, through its catch-up and after ----
    const apiMemory = await measureApiMemory(bench, { log });
    log(
      `api memory: peak ${apiMemory.peakRssMb} MB, steady ${apiMemory.steadyRssMb} MB RSS with ` +
        `${apiMemory.events} events; caught up in ${apiMemory.catchUpSeconds.toFixed(1)} s`,
    );

    // ---- report ----
    const figures = {
      rawInsertCommitsPerSec: Math.round(rawRate),
      appendPerSec: Math.round(oursRate),
      emmettAppendPerSec: Math.round(emmettRate),
      catchUpReadPerSec: Math.round(catchUpRate),
      rawReadPerSec: Math.round(rawReadRate),
      catchUpVsRawRead: Number(reads.ratio.toFixed(3)),
      rebuildPerSec: Math.round(rebuildRate),
      pointInTimeMs: Number(pointInTime.p95Ms.toFixed(2)),
      hotStreamCommandMs: Number(hotStream.medianMs.toFixed(2)),
      stockListP95Ms: Number(stockList.p95Ms.toFixed(2)),
      orderListP95Ms: Number(orderList.p95Ms.toFixed(2)),
      scanToBoardP99Ms: Number(scanToBoard.p99Ms.toFixed(2)),
      commandToPushP99Ms: Number(commandToPush.p99Ms.toFixed(2)),
      bulkAdjustRowsPerSec: Math.round(bulk.rowsPerSec),
      importOrdersPerSec: Math.round(importOrders.ordersPerSec),
      stockToChannelP99Ms: stockPush.stockToChannelP99Ms,
      oversoldUnits: oversold,
      oversoldUnitsPolling: oversoldPolling,
      publishListingsPerMin: publish.publishListingsPerMin,
      reportP95Ms: reports.reportP95Ms,
      feedReadPerSec: feed.feedReadPerSec,
      webhookDeliveryP99Ms: webhooks.webhookDeliveryP99Ms,
      asOfStockValuationMs: asOf.asOfStockValuationMs,
      apiSteadyRssMb: apiMemory.steadyRssMb,
      apiPeakRssMb: apiMemory.peakRssMb,
      workerSteadyRssMb: apiMemory.workerSteadyRssMb ?? null,
      workerPeakRssMb: apiMemory.workerPeakRssMb ?? null,
      appendVsRawInsert: Number((oursRate / rawRate).toFixed(3)),
      appendVsEmmett: Number((oursRate / emmettRate).toFixed(3)),
    };
    const passes = {
      appendVsRawInsert: figures.appendVsRawInsert >= BUDGET.appendVsRawInsert,
      appendVsEmmett: figures.appendVsEmmett >= BUDGET.appendVsEmmett,
      catchUpReadPerSec: figures.catchUpReadPerSec >= BUDGET.catchUpReadPerSec,
      catchUpVsRawRead: figures.catchUpVsRawRead >= BUDGET.catchUpVsRawRead,
      rebuildPerSec: figures.rebuildPerSec >= BUDGET.rebuildPerSec,
      pointInTimeMs: figures.pointInTimeMs <= BUDGET.pointInTimeMs,
      stockListP95Ms: figures.stockListP95Ms <= BUDGET.stockListP95Ms,
      orderListP95Ms: figures.orderListP95Ms <= BUDGET.orderListP95Ms,
      scanToBoardP99Ms: figures.scanToBoardP99Ms <= BUDGET.scanToBoardP99Ms,
      commandToPushP99Ms: figures.commandToPushP99Ms <= BUDGET.commandToPushP99Ms,
      stockToChannelP99Ms: figures.stockToChannelP99Ms <= BUDGET.stockToChannelP99Ms,
      oversoldUnits: oversold <= BUDGET.oversoldVsPolling * oversoldPolling,
      apiSteadyRssMb: figures.apiSteadyRssMb <= BUDGET.apiSteadyRssMb,
      reportP95Ms: figures.reportP95Ms <= BUDGET.reportP95Ms,
      feedReadPerSec: figures.feedReadPerSec >= BUDGET.feedReadPerSec,
      webhookDeliveryP99Ms:
        figures.webhookDeliveryP99Ms <= BUDGET.webhookDeliveryP99Ms &&
        webhooks.acknowledged === webhooks.events,
      asOfStockValuationMs: figures.asOfStockValuationMs <= BUDGET.asOfStockValuationMs,
    };
    const writeDetail = (key: Key) => {
      const all = results.get(key)!;
      const split = sumSplits(all.map((r) => r.cpu));
      const operations = all.reduce((sum, r) => sum + r.operations, 0);
      return `rounds ${rates(key)
        .map((r) => Math.round(r))
        .join(' / ')}; ${formatPerOperation(split, operations)}; ${formatShares(split)}`;
    };
    const table: Row[] = [
      { measure: 'raw INSERT commits/s, 8 connections', value: perSec(rawRate), detail: writeDetail('raw') },
      {
        measure: 'ours: append 1 event + revision, 8 writers',
        value: perSec(oursRate),
        detail: writeDetail('ours'),
      },
      {
        measure: 'Emmett: append 1 event, same load',
        value: perSec(emmettRate),
        detail: writeDetail('emmett'),
      },
      {
        measure: 'appendVsRawInsert',
        value: ratio(figures.appendVsRawInsert),
        budget: `≥ ${BUDGET.appendVsRawInsert}`,
        pass: passes.appendVsRawInsert,
      },
      {
        measure: 'appendVsEmmett',
        value: ratio(figures.appendVsEmmett),
        budget: `≥ ${BUDGET.appendVsEmmett}`,
        pass: passes.appendVsEmmett,
      },
      {
        measure: `catch-up read, readAll pages of ${READ_PAGE}`,
        value: perSec(catchUpRate),
        budget: `≥ ${perSec(BUDGET.catchUpReadPerSec)}`,
        pass: passes.catchUpReadPerSec,
        detail: `${logSize} events; passes ${reads.ours.map((r) => Math.round(r.perSec)).join(' / ')}; ${formatShares(sumSplits(reads.ours.map((r) => r.cpu)))}`,
      },
      {
        measure: 'catchUpVsRawRead',
        value: ratio(figures.catchUpVsRawRead),
        budget: `≥ ${BUDGET.catchUpVsRawRead}`,
        pass: passes.catchUpVsRawRead,
        detail:
          `median of paired passes against plain pg reading the same pages (${reads.raw.map((r) => Math.round(r.perSec)).join(' / ')}); ` +
          `event data parsed when read`,
      },
      {
        measure: `projection rebuild, batches of ${REBUILD_BATCH}`,
        value: perSec(rebuildRate),
        budget: `≥ ${perSec(BUDGET.rebuildPerSec)}`,
        pass: passes.rebuildPerSec,
        detail: `${rebuild.operations} rows in ${rebuild.seconds.toFixed(2)} s; ${formatShares(rebuild.cpu)}`,
      },
      {
        measure: `stock as of a past instant, p95 of ${POINT_IN_TIME_QUERIES}`,
        value: `${figures.pointInTimeMs.toFixed(2)} ms`,
        budget: `≤ ${BUDGET.pointInTimeMs} ms`,
        pass: passes.pointInTimeMs,
        detail:
          `${STOCK_MOVEMENTS} movements of one stock; median ${pointInTime.medianMs.toFixed(2)} ms, ` +
          `max ${pointInTime.maxMs.toFixed(2)} ms; stockAt through withTenant; ${formatShares(pointInTime.cpu)}`,
      },
      {
        measure: `stock adjustment on a hot stream, median of ${HOT_STREAM_COMMANDS}`,
        value: `${figures.hotStreamCommandMs.toFixed(2)} ms`,
        detail:
          `handleStockCommand, one at a time, on the ${STOCK_MOVEMENTS}-movement stock (${hotStream.streamLength} events); ` +
          `p95 ${hotStream.p95Ms.toFixed(2)} ms, max ${hotStream.maxMs.toFixed(2)} ms; find by id + last event + append; ` +
          `${formatShares(hotStream.cpu)}`,
      },
      {
        measure: `stock list page, p95 of ${STOCK_LIST_QUERIES}`,
        value: `${figures.stockListP95Ms.toFixed(2)} ms`,
        budget: `≤ ${BUDGET.stockListP95Ms} ms`,
        pass: passes.stockListP95Ms,
        detail:
          `100,000 master codes × 3 warehouses, one warehouse sorted by available, 100 rows at offsets 0–5,000, ` +
          `capped count; median ${stockList.medianMs.toFixed(2)} ms, max ${stockList.maxMs.toFixed(2)} ms; ` +
          `listStock through withTenant; ${formatShares(stockList.cpu)}`,
      },
      {
        measure: `bulk adjustment upload, ${BULK_ROWS} rows`,
        value: perSec(figures.bulkAdjustRowsPerSec),
        detail:
          `parse + resolve + apply, file bytes to committed events (one per row), ${bulk.stocks} stocks, 8 at a time; ` +
          `${bulk.seconds.toFixed(2)} s, parse ${bulk.parseSeconds.toFixed(3)} s; ${formatShares(bulk.cpu)}`,
      },
      {
        measure: `order list page, p95 of ${orderList.count}`,
        value: `${figures.orderListP95Ms.toFixed(2)} ms`,
        budget: `≤ ${BUDGET.orderListP95Ms} ms`,
        pass: passes.orderListP95Ms,
        detail:
          `${orderSeed.orders} orders, 5 stores; one tab and one store, newest paid first, 100 rows at offsets ` +
          `0–5,000, count from the tab counts; median ${orderList.medianMs.toFixed(2)} ms, max ` +
          `${orderList.maxMs.toFixed(2)} ms; listOrders through withTenant; ${formatShares(orderList.cpu)}`,
      },
      {
        measure: `scan → board count in another websocket, p99 of ${scanToBoard.count}`,
        value: `${figures.scanToBoardP99Ms.toFixed(2)} ms`,
        budget: `≤ ${BUDGET.scanToBoardP99Ms} ms`,
        pass: passes.scanToBoardP99Ms,
        detail:
          `${scanToBoard.scansPerSec.toFixed(0)} scans/s for 10 s (handleOrderCommand), order board projection live, ` +
          `GET /api/live; p50 ${scanToBoard.medianMs.toFixed(1)} ms, p95 ${scanToBoard.p95Ms.toFixed(1)} ms; the ` +
          `command alone p50 ${scanToBoard.command.medianMs.toFixed(1)} ms, p99 ${scanToBoard.command.p99Ms.toFixed(1)} ms; ` +
          `${formatShares(scanToBoard.cpu)}`,
      },
      {
        measure: `command → read model → websocket push at ${ARCHITECTURE_COMMANDS_PER_SEC}/s, p99 of ${commandToPush.count}`,
        value: `${figures.commandToPushP99Ms.toFixed(2)} ms`,
        budget: `≤ ${BUDGET.commandToPushP99Ms} ms`,
        pass: passes.commandToPushP99Ms,
        detail:
          `the scan measurement at ${commandToPush.scansPerSec.toFixed(0)} commands/s for 10 s; p50 ` +
          `${commandToPush.medianMs.toFixed(1)} ms, p95 ${commandToPush.p95Ms.toFixed(1)} ms; the command alone p50 ` +
          `${commandToPush.command.medianMs.toFixed(1)} ms, p99 ${commandToPush.command.p99Ms.toFixed(1)} ms; ` +
          `${formatShares(commandToPush.cpu)}`,
      },
      {
        measure: `sales and top-SKU reports, 30-day range, p95 of ${reports.opens}`,
        value: `${figures.reportP95Ms} ms`,
        budget: `≤ ${BUDGET.reportP95Ms} ms`,
        pass: passes.reportP95Ms,
        detail:
          `${reportSeed.orders.toLocaleString('en-US')} orders as ${reportSeed.dayRows} day rows and ` +
          `${reportSeed.skuRows} SKU day rows; page and totals at once, random ranges of a year; median ` +
          `${reports.medianMs} ms, max ${reports.maxMs} ms`,
      },
      {
        measure: `stock valuation of ${asOf.stocks.toLocaleString('en-US')} stocks as of 15 days ago, median`,
        value: `${figures.asOfStockValuationMs} ms`,
        budget: `≤ ${BUDGET.asOfStockValuationMs} ms`,
        pass: passes.asOfStockValuationMs,
        detail:
          `${asOfSeed.masterCodes.toLocaleString('en-US')} master codes, ${asOfSeed.movements.toLocaleString('en-US')} ` +
          `movements with their average cost history; runs ${asOf.runsMs.join(' / ')} ms`,
      },
      {
        measure: 'integrator feed read from the start of the log, over HTTP',
        value: perSec(figures.feedReadPerSec),
        budget: `≥ ${perSec(BUDGET.feedReadPerSec)}`,
        pass: passes.feedReadPerSec,
        detail:
          `${feed.events.toLocaleString('en-US')} events of one account among others', ${feed.pages} pages ` +
          `with the app key, the client parsing each page in this process`,
      },
      {
        measure: 'event appended → signed webhook acknowledged at 200/s, p99',
        value: `${figures.webhookDeliveryP99Ms} ms`,
        budget: `≤ ${BUDGET.webhookDeliveryP99Ms} ms`,
        pass: passes.webhookDeliveryP99Ms,
        detail:
          `${webhooks.acknowledged}/${webhooks.events} events delivered in log order through the workflow; p50 ` +
          `${webhooks.webhookDeliveryP50Ms} ms; one POST ${webhooks.meanRequestMs} ms on average`,
      },
      {
        measure: `API process RSS with ${apiMemory.events.toLocaleString('en-US')} events, caught up`,
        value: `${figures.apiSteadyRssMb} MB`,
        budget: `≤ ${BUDGET.apiSteadyRssMb} MB`,
        pass: passes.apiSteadyRssMb,
        detail:
          `npm start's process (${apiMemory.nodeFlags.join(' ') || 'no node flags'}) on its own database with ` +
          `${apiMemory.orders.toLocaleString('en-US')} orders: median while an owner reads lists after catch-up ` +
          `(anon ${apiMemory.steadyAnonMb} + files ${apiMemory.steadyFileMb} MB); peak ${apiMemory.peakRssMb} MB ` +
          `during the catch-up from nothing (${apiMemory.catchUpSeconds.toFixed(0)} s); Temporal dev server ` +
          `${apiMemory.temporalPeakRssMb ?? '?'} MB beside it`,
      },
      {
        measure: 'stock change → channel sandbox holds it, p99',
        value: `${figures.stockToChannelP99Ms} ms`,
        budget: `≤ ${BUDGET.stockToChannelP99Ms} ms`,
        pass: passes.stockToChannelP99Ms,
        detail:
          `${stockPush.changes} adjustments at 100/s over 1,000 master codes, each linked in 5 sandbox stores ` +
          `(${stockPush.acknowledgements} acknowledgements); p50 ${stockPush.stockToChannelP50Ms} ms`,
      },
      {
        measure: 'oversold units in a simulated day, 3 stores, scarce SKUs',
        value: `${oversold} (push) vs ${oversoldPolling} (15-minute poll)`,
        budget: `push ≤ ${BUDGET.oversoldVsPolling * 100} % of polling`,
        pass: passes.oversoldUnits,
        detail: `the stores learn each change ${figures.stockToChannelP99Ms} ms later (the p99 above), or at each poll`,
      },
      {
        measure: 'listings of 10 variants fully published to 5 sandbox stores, per minute',
        value: `${figures.publishListingsPerMin}/min`,
        detail:
          `${publish.listings} listings published at once through the publish saga (a workflow per store: item, ` +
          `prices, stock, SKUs recorded) in ${publish.seconds} s; per listing p50 ${publish.listingP50Ms} ms, p99 ` +
          `${publish.listingP99Ms} ms; no budget in the issue`,
      },
      {
        measure: "the background process's RSS (Temporal worker, projections, reactors), beside the API",
        value: `${apiMemory.workerSteadyRssMb ?? '?'} MB`,
        detail: `npm start's child (workflows/worker-main.ts), over the same steady window; peak ${apiMemory.workerPeakRssMb ?? '?'} MB`,
      },
      {
        measure: 'peak RSS of this process',
        value: `${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
        detail:
          `Node ${process.version}, node flags ${nodeFlags() || '(none)'}, ` +
          `NODE_OPTIONS=${process.env.NODE_OPTIONS || '(none)'}, Postgres durable defaults`,
      },
    ];
    process.stdout.write(`${formatTable(table)}\n${JSON.stringify(figures)}\n`);
    const missed = Object.values(passes).some((pass) => !pass);
    return missed && process.env.BENCH_STRICT === '1' ? 2 : 0;
  } finally {
    for (const close of closers.reverse()) {
      await close().catch((error: unknown) => log(`cleanup: ${String(error)}`));
    }
    await bench.stop();
  }
}

function positiveNumber(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a positive number, not "${text}"`);
  return value;
}

runMain(main);

/** The flags this process's node was given (tsx's own loader flags aside), as npm start gives the API's. */
function nodeFlags(): string {
  return process.execArgv.filter((flag) => flag.startsWith('--max-')).join(' ');
}
