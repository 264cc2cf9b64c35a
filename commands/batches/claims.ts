import type { Database } from '@infra/db';
import { type Kysely, sql } from 'kysely';

/**
 * Which batch holds an order: one row per order, taken in one statement, so two batches made at the same moment (two
 * people, or a person and an auto batch) can never both take the same order — the order's own stream knows its batch
 * too, but deciding there would need the batch to see every other batch in the making. A claim is taken before the
 * batch is recorded and confirmed after; a claim whose batch never got recorded (a crash in between) expires after
 * CLAIM_EXPIRY so the order can be batched again. Taking an order out of a batch gives its claim up.
 */

const CLAIM_EXPIRY = '10 minutes';

/**
 * Claims the orders for `batchId`: the ones it now holds (those it held already included); the others are held by
 * another batch.
 */
export async function claimOrders(
  db: Kysely<Database>,
  tenantId: string,
  batchId: string,
  orderIds: readonly string[],
): Promise<{ claimed: string[]; taken: string[] }> {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return { claimed: [], taken: [] };
  const rows = await sql<{ order_id: string }>`
    INSERT INTO batch_claims AS c (tenant_id, order_id, batch_id, confirmed, claimed_at)
    SELECT ${tenantId}, id, ${batchId}, false, now() FROM unnest(${ids}::text[]) AS id
    ON CONFLICT (tenant_id, order_id) DO UPDATE
      SET batch_id = excluded.batch_id,
          confirmed = CASE WHEN c.batch_id = excluded.batch_id THEN c.confirmed ELSE false END,
          claimed_at = CASE WHEN c.batch_id = excluded.batch_id THEN c.claimed_at ELSE excluded.claimed_at END
      WHERE c.batch_id = excluded.batch_id
         OR (NOT c.confirmed AND c.claimed_at < now() - ${CLAIM_EXPIRY}::interval)
    RETURNING order_id`.execute(db);
  const claimed = new Set(rows.rows.map((row) => row.order_id));
  return { claimed: ids.filter((id) => claimed.has(id)), taken: ids.filter((id) => !claimed.has(id)) };
}

/** The batch is recorded: its claims no longer expire. */
export async function confirmClaims(
  db: Kysely<Database>,
  tenantId: string,
  batchId: string,
  orderIds: readonly string[],
): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .updateTable('batch_claims')
    .set({ confirmed: true })
    .where('tenant_id', '=', tenantId)
    .where('batch_id', '=', batchId)
    .where('order_id', 'in', [...orderIds])
    .execute();
}

/**
 * Hands the batch's claims on these orders to another batch about to be made (a batch separated): the orders are
 * never free in between, so an auto batch cannot take them while they move. Unconfirmed until that batch is recorded.
 */
export async function handOverClaims(
  db: Kysely<Database>,
  tenantId: string,
  from: string,
  to: string,
  orderIds: readonly string[],
): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .updateTable('batch_claims')
    .set({ batch_id: to, confirmed: false, claimed_at: new Date() })
    .where('tenant_id', '=', tenantId)
    .where('batch_id', '=', from)
    .where('order_id', 'in', [...orderIds])
    .execute();
}

/** Gives up the batch's claims on these orders (taken out of it, or never recorded in it). */
export async function releaseClaims(
  db: Kysely<Database>,
  tenantId: string,
  batchId: string,
  orderIds: readonly string[],
): Promise<void> {
  if (orderIds.length === 0) return;
  await db
    .deleteFrom('batch_claims')
    .where('tenant_id', '=', tenantId)
    .where('batch_id', '=', batchId)
    .where('order_id', 'in', [...orderIds])
    .execute();
}

/** The account's next batch number (1, 2, 3…): one sequence per account, whatever the prefix. */
export async function nextBatchNumber(db: Kysely<Database>, tenantId: string): Promise<number> {
  const row = await db
    .insertInto('batch_numbers')
    .values({ tenant_id: tenantId, last_number: 1 })
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ last_number: sql`batch_numbers.last_number + 1` }),
    )
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}
