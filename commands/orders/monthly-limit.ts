import { PackageLimits } from '@domain/access/packages';
import { timezoneOfCountry } from '@domain/batches/auto-batch';
import { admits, freePlaces, monthIn } from '@domain/orders/monthly-limit';
import { placed, waitingOnHold } from '@domain/orders/order';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { EventStore } from '@infra/eventstore/port';
import { type Kysely, sql, type Transaction } from 'kysely';
import { findOrder, handleOrderCommand } from './order';

/**
 * The monthly order limit enforced (the rule: domain/orders/monthly-limit.ts). The ledger `order_admissions` has one
 * row per order that asked in, in arrival order; each decision is taken under a per-account lock, so two imports
 * at once never both take a month's last place, and an order asking again (a retried import) gets the decision it
 * got the first time. The order's stream records the hold (OrderHeld, with the import) and the release.
 *
 * The release runs in two steps so that a crash anywhere repeats nothing: under the lock, the oldest held orders
 * that fit are marked `releasing` (and counted in this month); then each is released on its stream with a command
 * id of its own, and marked `admitted`. A run that died between the two finds the `releasing` rows and finishes
 * them; an order already released records nothing again. Who drives it: the Temporal schedule of
 * workflows/order-hold-release.workflow.ts (a new month, a larger package), and every import of new orders.
 */

export interface MonthlyLimitDeps {
  db: Kysely<Database>;
  store: EventStore;
}

/** Only one decision per account at a time (imports of several stores, an upload, a release). */
const lockAccount = (trx: Transaction<Database>, tenantId: string) =>
  sql`SELECT pg_advisory_xact_lock(hashtext('kedai.order_admissions'), hashtext(${tenantId}))`.execute(trx);

/** The account's monthly order limit (null: none) and the month now in its time zone. */
async function limitNow(trx: Transaction<Database>, tenantId: string, now: Date) {
  const row = await trx
    .selectFrom('tenants as n')
    .innerJoin('packages as p', 'p.id', 'n.package_id')
    .select(['p.limits', 'n.country'])
    .where('n.id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return {
    limit: PackageLimits.parse(row.limits).monthlyOrders,
    month: monthIn(timezoneOfCountry(row.country), now),
  };
}

/** Orders admitted in `month` (those being released count: their place is taken). */
async function admittedIn(trx: Transaction<Database>, tenantId: string, month: string): Promise<number> {
  const row = await trx
    .selectFrom('order_admissions')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('month', '=', month)
    .where('state', 'in', ['admitted', 'releasing'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the account has an order in one of `states` (held ones, by default): one look at the waiting index. */
export async function hasWaiting(
  db: Kysely<Database>,
  tenantId: string,
  states: readonly ('held' | 'releasing')[] = ['held'],
): Promise<boolean> {
  const row = await db
    .selectFrom('order_admissions')
    .select('order_id')
    .where('tenant_id', '=', tenantId)
    .where('state', 'in', states)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Asks a place for a new order: null when it enters now, else the month that is full (the order is to be imported
 * held). Asking again for the same order answers as the first time.
 */
export async function admitOrder(
  db: Kysely<Database>,
  tenantId: string,
  orderId: string,
  now: Date,
): Promise<string | null> {
  return withTenant(db, tenantId, async (trx) => {
    await lockAccount(trx, tenantId);
    const asked = await trx
      .selectFrom('order_admissions')
      .select(['state', 'month'])
      .where('tenant_id', '=', tenantId)
      .where('order_id', '=', orderId)
      .executeTakeFirst();
    if (asked) return asked.state === 'held' ? asked.month : null;
    const { limit, month } = await limitNow(trx, tenantId, now);
    const waiting = await hasWaiting(trx, tenantId);
    const admitted = admits(limit, limit === null ? 0 : await admittedIn(trx, tenantId, month), waiting);
    await trx
      .insertInto('order_admissions')
      .values({ tenant_id: tenantId, order_id: orderId, state: admitted ? 'admitted' : 'held', month })
      .execute();
    return admitted ? null : month;
  });
}

/** Marks the oldest held orders that fit now `releasing`; a held order closed meanwhile gives its place back. */
async function chooseReleases(deps: MonthlyLimitDeps, tenantId: string, now: Date): Promise<void> {
  await withTenant(deps.db, tenantId, async (trx) => {
    await lockAccount(trx, tenantId);
    const { limit, month } = await limitNow(trx, tenantId, now);
    let free = freePlaces(limit, limit === null ? 0 : await admittedIn(trx, tenantId, month));
    if (free === 0) return;
    const held = await trx
      .selectFrom('order_admissions')
      .select('order_id')
      .where('tenant_id', '=', tenantId)
      .where('state', '=', 'held')
      .orderBy('seq')
      .execute();
    for (const { order_id: orderId } of held) {
      if (free === 0) break;
      const order = placed(await findOrder(deps.store, tenantId, orderId));
      // Its import has not been recorded yet (it will be, held): left for a later run.
      if (!order) continue;
      const closed = !waitingOnHold(order);
      await trx
        .updateTable('order_admissions')
        .set({ state: closed ? 'closed' : 'releasing', month, updated_at: now })
        .where('tenant_id', '=', tenantId)
        .where('order_id', '=', orderId)
        .execute();
      if (!closed) free--;
    }
  });
}

/**
 * Releases the account's held orders the limit lets in now, oldest first; the orders released. Safe to run at any
 * time, from anywhere, twice at once: each order is released once.
 */
export async function releaseHeldOrders(
  deps: MonthlyLimitDeps,
  tenantId: string,
  now: Date = new Date(),
): Promise<string[]> {
  // Most accounts have nothing held: one look, no lock.
  if (!(await withTenant(deps.db, tenantId, (trx) => hasWaiting(trx, tenantId, ['held', 'releasing']))))
    return [];
  await chooseReleases(deps, tenantId, now);
  const releasing = await withTenant(deps.db, tenantId, (trx) =>
    trx
      .selectFrom('order_admissions')
      .select(['order_id', 'month'])
      .where('tenant_id', '=', tenantId)
      .where('state', '=', 'releasing')
      .orderBy('seq')
      .execute(),
  );
  const released: string[] = [];
  for (const { order_id: orderId, month } of releasing) {
    const result = await handleOrderCommand(
      deps.store,
      orderId,
      { type: 'ReleaseHold', month },
      { tenantId, commandId: `order-release:${orderId}`, occurredAt: now.toISOString() },
    );
    if (result.events.length > 0 && !result.replayed) released.push(orderId);
    await withTenant(deps.db, tenantId, (trx) =>
      trx
        .updateTable('order_admissions')
        .set({ state: 'admitted', updated_at: now })
        .where('tenant_id', '=', tenantId)
        .where('order_id', '=', orderId)
        .where('state', '=', 'releasing')
        .execute(),
    );
  }
  return released;
}

/** The accounts with orders held or being released (the schedule's round; read by the system role). */
export async function accountsWithHeldOrders(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .selectFrom('order_admissions')
    .select('tenant_id')
    .distinct()
    .where('state', 'in', ['held', 'releasing'])
    .execute();
  return rows.map((row) => row.tenant_id);
}
