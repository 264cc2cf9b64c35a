import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTenantWithOwner, ensurePackages } from '@commands/accounts/seed';
import { createOrderStockReactor } from '@commands/orders/stock-reactor';
import { eventIdFor } from '@commands/support/ids';
import { eventSchemas } from '@domain/events';
import {
  available,
  decide as decideStock,
  figuresOf,
  initialState as initialStock,
  type StockCommand,
  type StockEvent,
  type StockState,
  stockStreamId,
} from '@domain/inventory/stock';
import {
  decide as decideOrder,
  evolve as evolveOrder,
  initialState,
  type OrderCommand,
  type OrderEvent,
  type OrderState,
  orderStreamId,
  type StockMove,
} from '@domain/orders/order';
import { createDb, createPool, type Database } from '@infra/db';
import { migrateToLatest } from '@infra/db/migrator';
import { freePort } from '@infra/embedded/ports';
import type { ExpectedRevision, NewEvent } from '@infra/eventstore/port';
import { PostgresEventStore } from '@infra/eventstore/postgres';
import { EventSchemaRegistry } from '@infra/eventstore/registry';
import { ensureConsoleBuilt } from '@infra/web/build';
import { projections } from '@projections/index';
import { checkpointName } from '@projections/runtime/reactor';
import { streamCatalogue } from '@projections/stream-catalogue';
import { childrenOf } from '@tests/support/processes';
import { type Kysely, sql } from 'kysely';
import { cpuSampler, formatShares } from './cpu';
import { timed } from './load';
import type { BenchServer } from './server';

/**
 * The memory budget: "API process memory with 1,000,000 events stored ≤ 300 MB RSS".
 *
 * A fresh database of the bench's Postgres is filled with 1,000,000 real Kedai events, through the event store and the
 * registry the API itself builds (every event passes its schema): the stock movements of 4 accounts (2,000 master
 * codes × 3 warehouses each, made by the stock decider so each carries the figures after it) and, about a fifth of
 * the log, their marketplace orders (made by the order decider: imported, accepted, shipment arranged, AWB printed,
 * scanned, shipped; some cancelled, some still open) with the stock movements the order stock reactor answers them
 * with (the ids it derives), so a replay of the reactor finds its work done as after a real run.
 *
 * Then the API is started as `npm start` starts it: package.json's start script (`tsx <node flags> api/main.ts`, the
 * flags read at run time), on that database, with its own Temporal dev server and a data directory of its own. Its
 * projections and its reactor start from nothing and catch up through the whole log. The RSS of the Node process
 * that runs api/main.ts (tsx's child, not the tsx launcher) is sampled from /proc every 100 ms from launch:
 *
 * - peakRssMb: its VmHWM (the kernel's high-water mark, between samples too) at the end, catch-up included;
 * - steadyRssMb: the median RSS over a few seconds after catch-up, while a signed-in owner reads the stock list,
 *   the movement report and the order board (steadyMaxRssMb: the largest sample of that window);
 * - catchUpSeconds: from launch until no projection nor reactor has an event of its types after its checkpoint.
 *
 * The API is stopped with SIGINT as Ctrl-C stops it (SIGKILL to its process group if it has not exited in 30 s) and
 * its data directory removed, whatever happens.
 */

export const API_MEMORY_EVENTS = 1_000_000;

const TENANTS = 4;
const WAREHOUSES = 3;
const MASTER_CODES = 2_000;
/** Share of the generator's steps that are order steps (each starts one order and moves up to 3 others on). */
const ORDER_STEP_SHARE = 0.2;
/** Orders waiting between two of their steps: how far apart in the log an order's events are. */
const ORDER_LAG = 300;
/** Appends handed to the store and not yet answered (the store sends them in groups of up to 1,000 events). */
const APPEND_WINDOW = 2_000;
/** Simulated time between two events: the million events span about eleven months. */
const STEP_MS = 30_000;

const SAMPLE_MS = 100;
const READY_TIMEOUT_MS = 180_000;
const CATCH_UP_TIMEOUT_MS = 900_000;
const STOP_TIMEOUT_MS = 30_000;
const POLL_MS = 250;

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const CLIENT = { clientId: 'kedai-console', clientSecret: 'kedai-bench-console-secret' };
const OWNER_PASSWORD = 'bench memory password 1';

// ---- seeding ----

interface Tenant {
  id: string;
  ownerId: string;
  ownerEmail: string;
  warehouseIds: string[];
  masterCodeIds: string[];
  storeIds: string[];
}

interface StockBook {
  tenant: Tenant;
  masterCodeId: string;
  warehouseId: string;
  stream: string;
  state: StockState;
  /** The stream's last revision (null: no event yet). */
  revision: bigint | null;
}

interface OpenOrder {
  tenant: Tenant;
  orderId: string;
  stream: string;
  state: OrderState;
  revision: bigint;
  /** What happens to it next, in order. */
  plan: ('arrange' | 'print' | 'scan' | 'ship' | 'cancel')[];
}

export interface ApiMemorySeed {
  events: number;
  orders: number;
  stocks: number;
  tenants: { id: string; ownerEmail: string; warehouseIds: string[] }[];
  seconds: number;
}

/** Accounts with owners, warehouses and master codes: the rows the API reads beside the read models. */
async function seedReference(db: Kysely<Database>): Promise<Tenant[]> {
  await ensurePackages(db);
  const tenants: Tenant[] = [];
  for (let t = 1; t <= TENANTS; t++) {
    const id = `bench-memory-${t}`;
    const ownerEmail = `owner-${t}@memory.kedai.test`;
    const { userId } = await createTenantWithOwner(db, {
      tenantId: id,
      name: `Memory bench ${t}`,
      country: 'MY',
      packageId: 'growth',
      status: 'active',
      owner: {
        email: ownerEmail,
        firstName: 'Bench',
        lastName: `Owner ${t}`,
        phone: '+60123456789',
        password: OWNER_PASSWORD,
      },
    });
    const warehouseIds = Array.from({ length: WAREHOUSES }, () => randomUUID());
    await sql`
      INSERT INTO warehouses (id, tenant_id, kind, code, name, is_default)
      SELECT w.id, ${id}, 'warehouse', 'WH-' || w.ord, 'Warehouse ' || w.ord, w.ord = 1
      FROM unnest(${warehouseIds}::uuid[]) WITH ORDINALITY AS w(id, ord)`.execute(db);
    const masterCodeIds = Array.from({ length: MASTER_CODES }, () => randomUUID());
    await sql`
      INSERT INTO master_codes (id, tenant_id, code, name, type, seller_sku)
      SELECT m.id, ${id}, 'MC-' || lpad(m.ord::text, 5, '0'), 'Item ' || m.ord, 'standard',
        'SKU-' || lpad(m.ord::text, 5, '0')
      FROM unnest(${masterCodeIds}::uuid[]) WITH ORDINALITY AS m(id, ord)`.execute(db);
    tenants.push({
      id,
      ownerId: userId,
      ownerEmail,
      warehouseIds,
      masterCodeIds,
      storeIds: [randomUUID(), randomUUID()],
    });
  }
  return tenants;
}

/** Hands appends to the store in the order they are made, at most APPEND_WINDOW unanswered. */
class Appender {
  private readonly inFlight: Promise<void>[] = [];
  private failure: unknown;
  appended = 0;

  constructor(private readonly store: PostgresEventStore) {}

  async append(stream: string, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<void> {
    this.appended += events.length;
    this.inFlight.push(
      this.store.append(stream, events, { expectedRevision }).then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= error;
        },
      ),
    );
    if (this.inFlight.length >= APPEND_WINDOW) await this.inFlight.shift();
    if (this.failure) throw this.failure;
  }

  async drain(): Promise<void> {
    await Promise.all(this.inFlight.splice(0));
    if (this.failure) throw this.failure;
  }
}

/**
 * Fills the log with `target` events (see the header), appended as they are made; returns what it wrote. Events go
 * through `store.append` with the API's registry, each append with the revision its stream is at.
 */
export async function seedApiMemoryLog(
  store: PostgresEventStore,
  db: Kysely<Database>,
  target: number = API_MEMORY_EVENTS,
): Promise<ApiMemorySeed> {
  let state = 0x3e11_a7c5;
  const random = () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

  const { value, seconds } = await timed(async () => {
    const tenants = await seedReference(db);
    const out = new Appender(store);
    const start = Date.now() - target * STEP_MS - 86_400_000;
    let clock = 0;
    const at = () => new Date(start + clock++ * STEP_MS).toISOString();
    const left = () => target - out.appended;

    const stocks = new Map<string, StockBook>();
    const book = (tenant: Tenant, masterCodeId: string, warehouseId: string): StockBook => {
      const stream = stockStreamId(tenant.id, masterCodeId, warehouseId);
      let found = stocks.get(stream);
      if (!found) {
        found = { tenant, masterCodeId, warehouseId, stream, state: initialStock, revision: null };
        stocks.set(stream, found);
      }
      return found;
    };
    /** Decides one stock command on the book's state and returns its event, the book moved on. */
    const move = (
      stock: StockBook,
      command: StockCommand,
      metadata: NewEvent['metadata'],
      id?: string,
    ): NewEvent => {
      const [event] = decideStock(command, stock.state) as [StockEvent];
      stock.state = figuresOf(event.data);
      return { ...(id ? { id } : {}), type: event.type, data: event.data, metadata };
    };
    const appendStock = async (stock: StockBook, events: NewEvent[]) => {
      if (events.length === 0) return;
      const expected = stock.revision ?? 'no_stream';
      stock.revision = (stock.revision ?? -1n) + BigInt(events.length);
      await out.append(stock.stream, events, expected);
    };
    const byUser = (tenant: Tenant) => ({
      tenantId: tenant.id,
      userId: tenant.ownerId,
      commandId: randomUUID(),
      occurredAt: at(),
    });

    /** A stock movement of the warehouse's own (receipts, counts, holds, expected stock, returns, write-offs). */
    const stockCommand = (stock: StockBook): StockCommand | 'transfer' => {
      const target = { masterCodeId: stock.masterCodeId, warehouseId: stock.warehouseId };
      const s = stock.state;
      const r = random();
      const q = between(1, 5);
      if (r < 0.3 || s.onHand < 10) return { type: 'ReceiveStock', ...target, quantity: between(10, 60) };
      if (r < 0.5) {
        const mode = random() < 0.15 ? 'set' : random() < 0.5 ? 'add' : 'deduct';
        const quantity = mode === 'set' ? between(20, 200) : q;
        return {
          type: 'AdjustStock',
          ...target,
          mode,
          quantity,
          refuseNegative: false,
          reason: 'Stock count',
        };
      }
      if (r < 0.6)
        return { type: 'HoldStock', ...target, quantity: q, hold: random() < 0.7 ? 'online' : 'pos' };
      if (r < 0.68) {
        if (s.onHold >= q) return { type: 'ReleaseHold', ...target, quantity: q, hold: 'online' };
        if (s.posOnHold >= q) return { type: 'ReleaseHold', ...target, quantity: q, hold: 'pos' };
        return { type: 'ReceiveStock', ...target, quantity: between(10, 60) };
      }
      if (r < 0.76) return { type: 'ExpectStock', ...target, quantity: between(10, 100) };
      if (r < 0.82) {
        return s.incoming > 0
          ? { type: 'ReceiveStock', ...target, quantity: s.incoming, settlesIncoming: true }
          : { type: 'ExpectStock', ...target, quantity: between(10, 100) };
      }
      if (r < 0.85 && s.incoming >= q) return { type: 'CancelExpectedStock', ...target, quantity: q };
      if (r < 0.9) return { type: 'ReturnStock', ...target, quantity: 1, reason: 'Customer return' };
      if (r < 0.94 && available(s) >= q) return { type: 'ShipStock', ...target, quantity: q, from: 'free' };
      if (r < 0.97 && available(s) >= q) {
        return { type: 'WriteOffStock', ...target, quantity: 1, refuseNegative: false, reason: 'Damaged' };
      }
      return available(s) >= q + 5
        ? 'transfer'
        : { type: 'ReceiveStock', ...target, quantity: between(10, 60) };
    };

    /** A few movements of one stock in one append; a transfer ends it, its arrival appended to the other stock. */
    const stockStep = async () => {
      const tenant = pick(tenants);
      const stock = book(tenant, pick(tenant.masterCodeIds), pick(tenant.warehouseIds));
      const count = Math.min(between(4, 16), left());
      const events: NewEvent[] = [];
      while (events.length < count) {
        const command = stockCommand(stock);
        if (command === 'transfer' && left() - events.length >= 2) {
          const to = book(
            tenant,
            stock.masterCodeId,
            pick(tenant.warehouseIds.filter((w) => w !== stock.warehouseId)),
          );
          const quantity = between(1, 5);
          const transfer = { type: 'transfer', id: randomUUID() };
          events.push(
            move(
              stock,
              {
                type: 'TransferStockOut',
                masterCodeId: stock.masterCodeId,
                warehouseId: stock.warehouseId,
                quantity,
                toWarehouseId: to.warehouseId,
                source: transfer,
              },
              byUser(tenant),
            ),
          );
          await appendStock(stock, events);
          const arrival = move(
            to,
            {
              type: 'TransferStockIn',
              masterCodeId: to.masterCodeId,
              warehouseId: to.warehouseId,
              quantity,
              fromWarehouseId: stock.warehouseId,
              source: transfer,
            },
            byUser(tenant),
          );
          await appendStock(to, [arrival]);
          return;
        }
        if (command !== 'transfer') events.push(move(stock, command, byUser(tenant)));
      }
      await appendStock(stock, events);
    };

    // ---- orders, and the reactor's answers ----

    const open: OpenOrder[] = [];
    let orders = 0;
    const REASONS: Partial<Record<OrderEvent['type'], string>> = {
      OrderAccepted: 'Order accepted',
      OrderScanned: 'Order scanned',
      OrderShipped: 'Order shipped',
      OrderCancelled: 'Order cancelled',
    };

    /**
     * The stock command the order stock reactor answers an event with, for each standard line (all are, here): the
     * moves of the order lifecycles below. Anything else is a mistake of this generator.
     */
    const reactorStep = (event: OrderEvent) => {
      const from = heldBy(event)?.from;
      if (from === undefined) return null;
      if (event.type === 'OrderAccepted' && from === 'none') return 'ReserveStock' as const;
      if (event.type === 'OrderScanned' && from === 'reserved') return 'StartProcessing' as const;
      if (event.type === 'OrderShipped' && from === 'inProcess') return 'ShipStock' as const;
      if (event.type === 'OrderCancelled' && from === 'reserved') return 'ReleaseStock' as const;
      throw new Error(`the memory bench does not answer ${event.type} from ${from}`);
    };

    /** Runs an order command: its events to the order's stream, then the reactor's answers to the stocks. */
    const orderCommand = async (order: OpenOrder, command: OrderCommand, userId?: string) => {
      const commandId = randomUUID();
      const decided = decideOrder(command, order.state);
      const occurredAt = at();
      const recorded = decided.map((event, index) => ({
        id: eventIdFor(commandId, index),
        type: event.type,
        data: event.data,
        metadata: { tenantId: order.tenant.id, ...(userId ? { userId } : {}), commandId, occurredAt },
      }));
      const expected = order.revision < 0n ? 'no_stream' : order.revision;
      order.revision += BigInt(decided.length);
      order.state = decided.reduce(evolveOrder, order.state);
      await out.append(order.stream, recorded, expected);
      for (const [index, event] of decided.entries()) {
        const step = reactorStep(event);
        const held = heldBy(event);
        if (!step || !held) continue;
        // The reactor's command id (the order event's id and the line) and the event id derived from it.
        const eventId = recorded[index]!.id;
        for (const line of held.lines) {
          const stock = book(order.tenant, line.masterCodeId, held.warehouseId);
          const target = {
            masterCodeId: line.masterCodeId,
            warehouseId: held.warehouseId,
            quantity: line.quantity,
            reason: REASONS[event.type] ?? event.type,
            source: { type: 'order', id: order.orderId },
          };
          const command: StockCommand =
            step === 'ShipStock' ? { type: step, ...target, from: 'inProcess' } : { type: step, ...target };
          const reactorCommandId = `${eventId}:${line.lineId}`;
          const metadata = {
            tenantId: order.tenant.id,
            ...(userId ? { userId } : {}),
            commandId: reactorCommandId,
            correlationId: eventId,
            causationId: eventId,
            occurredAt,
          };
          await appendStock(stock, [move(stock, command, metadata, eventIdFor(reactorCommandId))]);
        }
      }
    };

    const newOrder = async () => {
      const tenant = pick(tenants);
      const warehouseId = pick(tenant.warehouseIds);
      const lineCount = random() < 0.33 ? 2 : 1;
      const codes = new Set<string>();
      while (codes.size < lineCount) codes.add(pick(tenant.masterCodeIds));
      const lines = [...codes].map((masterCodeId, i) => ({
        lineId: `l${i + 1}`,
        sku: `SP-${masterCodeId.slice(0, 8)}`,
        sellerSku: `SKU-${masterCodeId.slice(0, 8)}`,
        name: `Item ${masterCodeId.slice(0, 8)}`,
        quantity: between(1, 3),
        unitPrice: `${between(5, 80)}.90`,
        masterCodeId,
        combo: false,
      }));
      // An order is accepted when there is stock for it: restock first what would be short, as a seller does.
      for (const line of lines) {
        const stock = book(tenant, line.masterCodeId, warehouseId);
        if (available(stock.state) < line.quantity + 2) {
          await appendStock(stock, [
            move(
              stock,
              {
                type: 'ReceiveStock',
                masterCodeId: line.masterCodeId,
                warehouseId,
                quantity: between(20, 60),
              },
              byUser(tenant),
            ),
          ]);
        }
      }
      orders++;
      const orderId = randomUUID();
      const now = new Date(start + clock * STEP_MS).toISOString();
      const order: OpenOrder = {
        tenant,
        orderId,
        stream: orderStreamId(tenant.id, orderId),
        state: initialState,
        revision: -1n,
        plan: [],
      };
      const cents = lines.reduce(
        (sum, line) => sum + Math.round(Number(line.unitPrice) * 100) * line.quantity,
        0,
      );
      await orderCommand(order, {
        type: 'ImportOrder',
        order: {
          orderId,
          storeId: pick(tenant.storeIds),
          platform: 'shopee',
          orderNumber: `26${String(orders).padStart(10, '0')}`,
          marketplaceStatus: 'ready_to_ship',
          warehouseId,
          orderedAt: now,
          paidAt: now,
          marketplaceUpdatedAt: now,
          cod: random() < 0.15,
          paymentMethod: 'Online banking',
          currency: 'MYR',
          totalAmount: (cents / 100).toFixed(2),
          buyerUsername: `buyer${between(1, 50_000)}`,
          preOrder: false,
          address: {
            name: 'Nur Aisyah',
            phone: '+60123456789',
            fullAddress: `${between(1, 200)} Jalan Bukit Bintang, 55100 Kuala Lumpur`,
            city: 'Kuala Lumpur',
            state: 'WP Kuala Lumpur',
            postalCode: '55100',
            country: 'MY',
          },
          lines,
        },
      });
      const r = random();
      // Most ship; some are cancelled before they are packed; a few stay open at the end of the log.
      order.plan = r < 0.9 ? ['arrange', 'print', 'scan', 'ship'] : r < 0.96 ? ['cancel'] : [];
      if (order.plan.length > 0) open.push(order);
    };

    const advance = async (order: OpenOrder) => {
      const next = order.plan.shift();
      const userId = order.tenant.ownerId;
      if (next === 'arrange') {
        await orderCommand(order, {
          type: 'ArrangeShipment',
          trackingNumber: `MY${String(between(1, 999_999_999)).padStart(10, '0')}`,
          shippingProvider: pick(['J&T Express', 'Ninja Van', 'Pos Laju']),
        });
      } else if (next === 'print') {
        await orderCommand(order, { type: 'MarkPrinted', document: 'AWB', origin: 'unscan' }, userId);
      } else if (next === 'scan') {
        await orderCommand(order, { type: 'ScanOrder' }, userId);
      } else if (next === 'ship') {
        await orderCommand(order, { type: 'ShipOrder', byMarketplace: false }, userId);
      } else if (next === 'cancel') {
        await orderCommand(order, { type: 'CancelOrder', reason: 'Buyer changed mind', byMarketplace: true });
      }
    };

    const orderStep = async () => {
      await newOrder();
      for (let i = 0; i < 3 && open.length > ORDER_LAG; i++) {
        const order = open.shift()!;
        await advance(order);
        if (order.plan.length > 0) open.push(order);
      }
    };

    // An order step writes at most ~20 events; the last events of the log are stock movements.
    while (left() > 0) {
      if (left() > 100 && random() < ORDER_STEP_SHARE) await orderStep();
      else await stockStep();
    }
    await out.drain();
    return {
      events: out.appended,
      orders,
      stocks: stocks.size,
      tenants: tenants.map((t) => ({ id: t.id, ownerEmail: t.ownerEmail, warehouseIds: t.warehouseIds })),
    };
  });
  return { ...value, seconds };
}

/** The stock an order event moves (OrderImported's `stock` is only a stage). */
function heldBy(event: OrderEvent): StockMove | null {
  const stock = 'stock' in event.data ? event.data.stock : null;
  return stock && typeof stock === 'object' ? stock : null;
}

// ---- the API process ----

interface Memory {
  rssKb: number;
  hwmKb: number;
  anonKb: number;
  fileKb: number;
}

/** VmRSS, VmHWM, RssAnon and RssFile of a process; undefined once it is gone (or a zombie). */
function memoryOf(pid: number): Memory | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return undefined;
  }
  const kb = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? Number.NaN);
  const memory = { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM'), anonKb: kb('RssAnon'), fileKb: kb('RssFile') };
  return Number.isNaN(memory.rssKb) ? undefined : memory;
}

/** CPU seconds (user + system) a process has used so far. */
function cpuSecondsOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/**
 * `npm start`'s command, from package.json's start script as it is now: `[NAME=value…] tsx [node flags…] api/main.ts`.
 * Returns the flags given to tsx (which hands them to node) and the variables set before it.
 */
export function startScript(): { flags: string[]; env: Record<string, string> } {
  const script = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start;
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) {
    const [name, ...value] = words.shift()!.split('=');
    env[name!] = value.join('=');
  }
  const entry = words.indexOf('api/main.ts');
  if (words[0] !== 'tsx' || entry < 0 || entry !== words.length - 1) {
    throw new Error(`package.json's start script is not "tsx [flags] api/main.ts": ${script}`);
  }
  return { flags: words.slice(1, entry), env };
}

export interface ApiMemoryOptions {
  /** Events to seed (default 1,000,000: the budget's). */
  events?: number;
  /** The database to create on the bench server (default kedai_api_memory). */
  database?: string;
  /** Node flags instead of the start script's (to compare); default: the script's. */
  nodeFlags?: readonly string[];
  /** How long the steady state is sampled after catch-up (default 5 s). */
  steadySeconds?: number;
  log?: (line: string) => void;
}

export interface ApiMemoryResult {
  events: number;
  orders: number;
  seedSeconds: number;
  /** The node flags the API ran with (the start script's unless overridden). */
  nodeFlags: string[];
  /** VmHWM of the API's Node process: the most it ever held, catch-up included. */
  peakRssMb: number;
  /** Median RSS over the steady window after catch-up. */
  steadyRssMb: number;
  steadyMaxRssMb: number;
  /** Of the steady RSS: anonymous memory (heaps, buffers) and mapped files (the node binary, libraries). */
  steadyAnonMb: number;
  steadyFileMb: number;
  /** RSS when GET /api/health first answered. */
  readyRssMb: number;
  /** Events the API appended itself (its SystemStarted; the reactor finds its answers already stored). */
  appendedByApi: number;
  /** Launch → GET /api/health answers. */
  readySeconds: number;
  /** Launch → every projection and reactor has applied every event of its types. */
  catchUpSeconds: number;
  /** CPU seconds the API process used from launch to caught up. */
  catchUpApiCpuSeconds: number;
  /** Where the CPU went during catch-up (node: this bench process; the API counts among others). */
  catchUpCpu: string;
  /** Postgres CPU while the API sat caught up and lightly used, in cores. */
  steadyPostgresCores: number | undefined;
  /** The API's own CPU over the steady window, in cores. */
  steadyApiCores: number;
  /** The background process (the Temporal worker, the projections, the reactors: npm start's child, not counted above): median over the steady window, largest. */
  workerSteadyRssMb: number | undefined;
  workerPeakRssMb: number | undefined;
  /** The Temporal dev server the API started (a separate process, not counted above), at its largest. */
  temporalPeakRssMb: number | undefined;
  /** The tsx launcher (a separate process, not counted above), at its largest. */
  launcherPeakRssMb: number | undefined;
  totalSeconds: number;
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

/**
 * Seeds a fresh database with `events` real events, starts the API on it as `npm start` does, and measures the
 * RSS of its Node process through start-up, the catch-up of every projection and reactor, and a steady window.
 */
export async function measureApiMemory(
  bench: BenchServer,
  options: ApiMemoryOptions = {},
): Promise<ApiMemoryResult> {
  const say = options.log ?? (() => undefined);
  const started = performance.now();
  const database = options.database ?? 'kedai_api_memory';
  const target = options.events ?? API_MEMORY_EVENTS;
  const url = bench.server.url(database);

  await bench.server.createDatabase(database);
  const pool = createPool(url, 8);
  const db = createDb(pool);
  const store = new PostgresEventStore(pool, new EventSchemaRegistry().registerAll(eventSchemas));
  let seed: ApiMemorySeed;
  try {
    await migrateToLatest(db);
    seed = await seedApiMemoryLog(store, db, target);
    say(
      `api memory: ${seed.events.toLocaleString('en-US')} events (${seed.orders.toLocaleString('en-US')} orders, ` +
        `${seed.stocks.toLocaleString('en-US')} stocks) seeded in ${seed.seconds.toFixed(1)} s`,
    );
    // What autovacuum does to a freshly written table before long; the API then starts on a settled server.
    await sql`VACUUM (ANALYZE) es_events`.execute(db);
    await sql`CHECKPOINT`.execute(db);
  } finally {
    await store.close();
    await db.destroy();
  }

  // npm start builds the console when its sources changed: do that here, so the API measured is the one that serves.
  const built = await timed(() => ensureConsoleBuilt((line) => say(`api memory: ${line}`)));
  if (built.seconds > 5) say(`api memory: console built in ${built.seconds.toFixed(1)} s`);

  const script = startScript();
  const nodeFlags = [...(options.nodeFlags ?? script.flags)];
  const dataDir = path.join(ROOT, '.data', `bench-api-memory-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env };
  // What the machine may have set must not reach the API: it runs as `npm start` with only these settings.
  for (const name of Object.keys(env)) {
    if (
      /^(NODE_OPTIONS|NODE_ENV|HOST|PUBLIC_URL|EVENTSTORE_URL|TEMPORAL_.*|SMTP_URL|SHOPEE_.*|TSX_.*)$/.test(
        name,
      )
    ) {
      delete env[name];
    }
  }
  Object.assign(env, script.env, {
    DATABASE_URL: url,
    PORT: String(port),
    DATA_DIR: dataDir,
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    SHOPEE_SANDBOX: 'off',
    LOG_LEVEL: 'warn',
    OAUTH_CLIENT_ID: CLIENT.clientId,
    OAUTH_CLIENT_SECRET: CLIENT.clientSecret,
  });
  say(`api memory: starting tsx ${[...nodeFlags, 'api/main.ts'].join(' ')} on port ${port}`);

  const launchedAt = performance.now();
  const api = launch(nodeFlags, env);
  // Should this process end first (Ctrl-C), launch's hook kills the API's process group, then this one runs.
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.on('exit', removeDataDir);
  const cpu = cpuSampler(bench.dir);
  const cpuAtLaunch = cpu.sample();
  let result: Omit<ApiMemoryResult, 'totalSeconds'>;
  try {
    const ready = await api.until(READY_TIMEOUT_MS, 'GET /api/health to answer', async () => {
      const response = await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => undefined);
      return response?.status === 200;
    });
    const readySeconds = (ready - launchedAt) / 1000;
    const readyRssKb = api.latest()?.rssKb ?? 0;
    say(`api memory: API up in ${readySeconds.toFixed(1)} s at ${mb(readyRssKb)} MB RSS; catching up`);

    const checkPool = createPool(url, 2);
    const checkDb = createDb(checkPool);
    const reactor = createOrderStockReactor({
      db: checkDb,
      store: new PostgresEventStore(checkPool, new EventSchemaRegistry()),
    });
    const subscribers = [
      // Reactors first: what they append, the projections then have to catch up with.
      { name: checkpointName(reactor.name), types: [...reactor.eventTypes] },
      ...projections.map((p) => ({ name: p.name, types: [...p.eventTypes] })),
    ];
    let caughtUp: number;
    let caughtUpCheck: { appendedByApi: number };
    try {
      let lastReport = performance.now();
      caughtUp = await api.until(CATCH_UP_TIMEOUT_MS, 'the projections to catch up', async () => {
        const behind = await firstBehind(checkDb, subscribers);
        if (performance.now() - lastReport > 15_000) {
          lastReport = performance.now();
          say(
            `api memory: ${((performance.now() - launchedAt) / 1000).toFixed(0)} s, ${behind ?? 'none'} behind, ${mb(api.latest()?.rssKb ?? 0)} MB RSS`,
          );
        }
        return behind === undefined;
      });
      caughtUpCheck = await checkCatchUp(checkDb, seed.events);
    } finally {
      await checkDb.destroy();
    }
    const catchUpSeconds = (caughtUp - launchedAt) / 1000;
    const catchUpCpu = cpu.split(cpuAtLaunch);
    const catchUpApiCpuSeconds = cpuSecondsOf(api.apiPid()) ?? Number.NaN;
    say(
      `api memory: caught up ${catchUpSeconds.toFixed(1)} s after launch, peak so far ${mb(api.latest()?.hwmKb ?? 0)} MB; ` +
        `API CPU ${catchUpApiCpuSeconds.toFixed(1)} s; ${formatShares(catchUpCpu)}`,
    );

    // ---- steady: an owner signs in and reads the lists the console opens ----
    const tenant = seed.tenants[0]!;
    const token = await signIn(port, tenant.ownerEmail);
    const steadyFrom = api.samples.length;
    const workerSteadyFrom = api.workerSamples.length;
    const steadyCpu = cpu.sample();
    const apiCpuBefore = cpuSecondsOf(api.apiPid()) ?? 0;
    const steadyStart = performance.now();
    const steadyMs = (options.steadySeconds ?? 5) * 1000;
    // A round of reads every half second, on a fixed schedule, as a console open on those screens refreshes them.
    for (let round = 0; performance.now() - steadyStart < steadyMs; round++) {
      await readLists(port, token, tenant.warehouseIds[round % tenant.warehouseIds.length]!);
      const wait = steadyStart + (round + 1) * 500 - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const steadyWall = (performance.now() - steadyStart) / 1000;
    const steadySplit = cpu.split(steadyCpu);
    const steadyApiCores = ((cpuSecondsOf(api.apiPid()) ?? apiCpuBefore) - apiCpuBefore) / steadyWall;
    const steady = api.samples.slice(steadyFrom);
    if (steady.length === 0) throw new Error('no RSS sample in the steady window');
    const rss = steady.map((s) => s.rssKb).sort((a, b) => a - b);
    const middle = steady[Math.floor(steady.length / 2)]!;
    const peak = api.latest()!;
    const workerSteady = api.workerSamples
      .slice(workerSteadyFrom)
      .map((s) => s.rssKb)
      .sort((a, b) => a - b);
    const workerPeak = api.workerSamples.at(-1)?.hwmKb;
    result = {
      events: seed.events,
      orders: seed.orders,
      seedSeconds: seed.seconds,
      nodeFlags,
      peakRssMb: mb(Math.max(peak.hwmKb, ...api.samples.map((s) => s.rssKb))),
      steadyRssMb: mb(rss[Math.floor(rss.length / 2)]!),
      steadyMaxRssMb: mb(rss.at(-1)!),
      steadyAnonMb: mb(middle.anonKb),
      steadyFileMb: mb(middle.fileKb),
      readyRssMb: mb(readyRssKb),
      readySeconds,
      appendedByApi: caughtUpCheck.appendedByApi,
      catchUpSeconds,
      catchUpApiCpuSeconds,
      catchUpCpu: formatShares(catchUpCpu),
      steadyPostgresCores:
        steadySplit.postgres === undefined ? undefined : steadySplit.postgres / steadySplit.wall,
      steadyApiCores,
      workerSteadyRssMb:
        workerSteady.length === 0 ? undefined : mb(workerSteady[Math.floor(workerSteady.length / 2)]!),
      workerPeakRssMb: workerPeak === undefined ? undefined : mb(workerPeak),
      temporalPeakRssMb: api.temporalPeakKb() === undefined ? undefined : mb(api.temporalPeakKb()!),
      launcherPeakRssMb: api.launcherPeakKb() === undefined ? undefined : mb(api.launcherPeakKb()!),
    };
  } catch (error) {
    const output = api.output().trim();
    if (output) say(`api memory: the API's output ended with:\n${output}`);
    throw error;
  } finally {
    const stopped = await api.stop();
    say(`api memory: API ${stopped}`);
    await rm(dataDir, { recursive: true, force: true });
    process.off('exit', removeDataDir);
  }
  return { ...result, totalSeconds: (performance.now() - started) / 1000 };
}

/** The first subscriber (reactor or projection) with an event of its types after its checkpoint, if any. */
async function firstBehind(
  db: Kysely<Database>,
  subscribers: readonly { name: string; types: string[] }[],
): Promise<string | undefined> {
  const rows = await db
    .selectFrom('projection_checkpoints')
    .select(['name', 'position_commit', 'position_prepare'])
    .execute();
  const checkpoints = new Map(rows.map((row) => [row.name, row]));
  // Those that have a checkpoint first: a range scan each. One that never applied anything may have no event of its
  // types at all, which only a scan of the whole log can say: left to the end, when the others are done.
  const ordered = [...subscribers].sort(
    (a, b) =>
      Number(!checkpoints.get(a.name)?.position_commit) - Number(!checkpoints.get(b.name)?.position_commit),
  );
  for (const subscriber of ordered) {
    const at = checkpoints.get(subscriber.name);
    const after =
      at?.position_commit != null && at.position_prepare != null
        ? sql`AND (transaction_id, global_position) > (${at.position_commit}::text::xid8, ${at.position_prepare}::bigint)`
        : sql``;
    const waiting = await sql<{ waiting: boolean }>`
      SELECT EXISTS (SELECT 1 FROM es_events WHERE type = ANY(${subscriber.types}::text[]) ${after}) AS waiting`.execute(
      db,
    );
    if (waiting.rows[0]?.waiting) return subscriber.name;
  }
  return undefined;
}

/**
 * What the catch-up condition claims, checked once more from the other side: the stream catalogue (which takes every
 * event type) has applied every event of the log. Returns how many events the API appended on top of the seed.
 */
async function checkCatchUp(db: Kysely<Database>, seeded: number): Promise<{ appendedByApi: number }> {
  const row = await sql<{ events: string; applied: string | null }>`
    SELECT (SELECT count(*) FROM es_events) AS events,
      (SELECT events_applied FROM projection_checkpoints WHERE name = ${streamCatalogue.name}) AS applied`.execute(
    db,
  );
  const events = Number(row.rows[0]!.events);
  const applied = Number(row.rows[0]!.applied ?? 0);
  if (applied !== events) {
    throw new Error(`caught up, yet the stream catalogue applied ${applied} of the log's ${events} events`);
  }
  return { appendedByApi: events - seeded };
}

async function signIn(port: number, username: string): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      client_id: CLIENT.clientId,
      client_secret: CLIENT.clientSecret,
      username,
      password: OWNER_PASSWORD,
    }),
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** One round of what a console open on the stock and order screens asks for. */
async function readLists(port: number, token: string, warehouseId: string): Promise<void> {
  const page = 'startRow=0&endRow=100';
  for (const route of [
    `/api/inventory/stock?warehouse_id=${warehouseId}&${page}`,
    `/api/inventory/stock/movements?${page}`,
    `/api/orders?tab=shipped&${page}`,
    '/api/orders/counts',
    '/api/health',
  ]) {
    const response = await fetch(`http://127.0.0.1:${port}${route}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`GET ${route}: ${response.status} ${body.slice(0, 300)}`);
  }
}

interface Launched {
  /** RSS samples of the API's Node process, every SAMPLE_MS from when it was found. */
  readonly samples: Memory[];
  /** RSS samples of the Temporal worker's process, taken with the API's (not all of them: it starts later). */
  readonly workerSamples: Memory[];
  latest(): Memory | undefined;
  apiPid(): number;
  temporalPeakKb(): number | undefined;
  launcherPeakKb(): number | undefined;
  output(): string;
  /** Polls `condition` every POLL_MS until true (returns when, performance.now()); fails if the API exits first. */
  until(timeoutMs: number, what: string, condition: () => Promise<boolean>): Promise<number>;
  stop(): Promise<string>;
}

/**
 * Starts `tsx <flags> api/main.ts` in a process group of its own, finds the Node process tsx starts for api/main.ts
 * and samples its memory; a process.on('exit') hook kills the group should this process end first.
 */
function launch(flags: readonly string[], env: NodeJS.ProcessEnv): Launched {
  const child: ChildProcess = spawn(
    path.join(ROOT, 'node_modules', '.bin', 'tsx'),
    [...flags, 'api/main.ts'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const launcher = child.pid;
  if (launcher === undefined) throw new Error('tsx could not be started');
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exit: string | undefined;
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = signal ? `killed by ${signal}` : `exited with ${code}`;
      resolve();
    });
  });
  const killGroup = () => {
    try {
      process.kill(-launcher, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.on('exit', killGroup);

  const samples: Memory[] = [];
  let apiPid: number | undefined;
  let temporalPid: number | undefined;
  let workerPid: number | undefined;
  const workerSamples: Memory[] = [];
  let temporalPeak: number | undefined;
  let launcherPeak: number | undefined;
  let ticks = 0;
  const sample = () => {
    ticks++;
    launcherPeak = Math.max(launcherPeak ?? 0, memoryOf(launcher)?.hwmKb ?? 0) || undefined;
    apiPid ??= childrenOf(launcher).find((c) => c.cmdline.includes('api/main.ts'))?.pid;
    if (apiPid === undefined) return;
    const memory = memoryOf(apiPid);
    if (memory) samples.push(memory);
    if (workerPid === undefined && ticks % 10 === 0) {
      workerPid = childrenOf(apiPid).find((c) => c.cmdline.includes('workflows/worker-main.ts'))?.pid;
    }
    const worker = workerPid === undefined ? undefined : memoryOf(workerPid);
    if (worker) workerSamples.push(worker);
    if (temporalPid === undefined && ticks % 10 === 0) {
      temporalPid = childrenOf(apiPid).find((c) => /temporal\S* server start-dev/.test(c.cmdline))?.pid;
    }
    if (temporalPid !== undefined) {
      temporalPeak = Math.max(temporalPeak ?? 0, memoryOf(temporalPid)?.hwmKb ?? 0) || temporalPeak;
    }
  };
  const timer = setInterval(sample, SAMPLE_MS);
  sample();

  return {
    samples,
    workerSamples,
    latest: () => samples.at(-1),
    apiPid() {
      if (apiPid === undefined) throw new Error('the API process was never found');
      return apiPid;
    },
    temporalPeakKb: () => temporalPeak,
    launcherPeakKb: () => launcherPeak,
    output: () => tail,
    async until(timeoutMs, what, condition) {
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        if (exit) throw new Error(`the API ${exit} while waiting for ${what}`);
        if (await condition()) return performance.now();
        if (performance.now() > deadline)
          throw new Error(`gave up waiting for ${what} after ${timeoutMs / 1000} s`);
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
      }
    },
    async stop() {
      if (!exit) {
        // Ctrl-C as the API gets it; tsx hears of it from its child and ends with it.
        try {
          process.kill(apiPid ?? launcher, 'SIGINT');
        } catch {
          // gone already
        }
        let timeout: NodeJS.Timeout | undefined;
        const late = await Promise.race([
          exited.then(() => false),
          new Promise<boolean>((resolve) => {
            timeout = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
          }),
        ]);
        clearTimeout(timeout);
        if (late) {
          killGroup();
          await exited;
          exit = `killed after ${STOP_TIMEOUT_MS / 1000} s without stopping`;
        }
      }
      // Whatever the API started in its group (the Temporal dev server) goes with it.
      killGroup();
      clearInterval(timer);
      process.off('exit', killGroup);
      return exit ?? 'stopped';
    },
  };
}
