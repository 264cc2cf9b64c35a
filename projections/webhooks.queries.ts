import type { DeliveryPage, DeliveryQuery, Webhook } from '@api/contracts/webhooks';
import { isUuid } from '@domain/platform/ids';
import { type DisabledReason, type WebhookStatus, webhookActions } from '@domain/webhooks/subscriptions';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { allOf, dateWhere, pageWindow, setWhere, sortTerms } from './runtime/grid';

/**
 * The webhooks' reads: an account's endpoints (plain settings rows, never their secrets) with their last delivery,
 * and the delivery log (commands/webhooks/deliver.ts writes one row per try).
 */

interface SubscriptionRow {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  status: WebhookStatus;
  disabled_reason: DisabledReason | null;
  delivered_through: string | null;
  failing_since: Date | null;
  previous_secret_until: Date | null;
  created_at: Date;
  updated_at: Date;
  last_outcome: 'delivered' | 'failed' | 'gone' | null;
  last_status: number | null;
  last_attempted_at: Date | null;
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function webhookOfRow(row: SubscriptionRow, now: Date): Webhook {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    status: row.status,
    disabled_reason: row.disabled_reason,
    actions: webhookActions(row.status),
    delivered_through: row.delivered_through,
    failing_since: iso(row.failing_since),
    previous_secret_until:
      row.previous_secret_until && row.previous_secret_until > now
        ? row.previous_secret_until.toISOString()
        : null,
    last_delivery:
      row.last_outcome && row.last_attempted_at
        ? {
            outcome: row.last_outcome,
            status: row.last_status,
            attempted_at: row.last_attempted_at.toISOString(),
          }
        : null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

async function subscriptionRows(db: Kysely<Database>, tenantId: string, id?: string) {
  return withTenant(db, tenantId, async (trx) => {
    const result = await sql<SubscriptionRow>`
      SELECT s.id, s.url, s.description, s.event_types, s.status, s.disabled_reason, s.delivered_through,
             s.failing_since, s.previous_secret_until, s.created_at, s.updated_at,
             d.outcome AS last_outcome, d.status AS last_status, d.attempted_at AS last_attempted_at
      FROM webhook_subscriptions s
      LEFT JOIN LATERAL (
        SELECT outcome, status, attempted_at FROM webhook_deliveries d
        WHERE d.tenant_id = s.tenant_id AND d.subscription_id = s.id
        ORDER BY attempted_at DESC LIMIT 1
      ) d ON true
      WHERE s.tenant_id = ${tenantId} ${id ? sql`AND s.id = ${id}::uuid` : sql``}
      ORDER BY s.created_at, s.id`.execute(trx);
    return result.rows;
  });
}

export async function webhooksOf(db: Kysely<Database>, tenantId: string): Promise<Webhook[]> {
  const now = new Date();
  return (await subscriptionRows(db, tenantId)).map((row) => webhookOfRow(row, now));
}

/** One endpoint of the account; undefined when it has none by that id (a malformed id included). */
export async function webhookOf(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
): Promise<Webhook | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await subscriptionRows(db, tenantId, id);
  return row && webhookOfRow(row, new Date());
}

/** The feed position of an event the endpoint was sent (from its delivery log); undefined when never sent. */
export async function deliveredPosition(
  db: Kysely<Database>,
  tenantId: string,
  subscriptionId: string,
  eventId: string,
): Promise<string | undefined> {
  if (!isUuid(eventId)) return undefined;
  const row = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('webhook_deliveries')
      .select('position')
      .where('tenant_id', '=', tenantId)
      .where('subscription_id', '=', subscriptionId)
      .where('event_id', '=', eventId)
      .limit(1)
      .executeTakeFirst(),
  );
  return row?.position;
}

// ---- the delivery log ----

const deliverySort: Record<DeliveryQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  attempted_at: sql`d.attempted_at`,
  // `<commit>-<prepare>`: ordered as the two numbers, not as text.
  position: sql`(split_part(d.position, '-', 1)::numeric, split_part(d.position, '-', 2)::numeric)`,
  status: sql`d.status`,
  duration_ms: sql`d.duration_ms`,
};

export async function deliveryPage(
  db: Kysely<Database>,
  tenantId: string,
  subscriptionId: string,
  query: DeliveryQuery,
): Promise<DeliveryPage> {
  const where: RawBuilder<SqlBool>[] = [
    sql<SqlBool>`d.tenant_id = ${tenantId}`,
    sql<SqlBool>`d.subscription_id = ${subscriptionId}::uuid`,
  ];
  const { filterModel } = query;
  if (filterModel.outcome) where.push(setWhere(sql<string>`d.outcome`, filterModel.outcome.values));
  if (filterModel.attempted_at) where.push(dateWhere(sql<Date>`d.attempted_at`, filterModel.attempted_at));
  if (query.event_id) where.push(sql<SqlBool>`d.event_id::text = ${query.event_id.toLowerCase()}`);
  const condition = allOf(where);
  const order = [...sortTerms(query.sortModel, deliverySort), sql`d.attempted_at DESC`, sql`d.id DESC`];
  const { limit, offset } = pageWindow(query);
  const { rows, total } = await withTenant(db, tenantId, async (trx) => {
    const page = await sql<{
      id: string;
      event_id: string;
      event_type: string;
      position: string;
      attempt: number;
      redelivery: boolean;
      request_headers: Record<string, string>;
      body_sha256: string;
      body_excerpt: string;
      outcome: 'delivered' | 'failed' | 'gone';
      status: number | null;
      answer_excerpt: string;
      error: string | null;
      duration_ms: number;
      attempted_at: Date;
    }>`
      SELECT d.id, d.event_id, d.event_type, d.position, d.attempt, d.redelivery, d.request_headers,
             d.body_sha256, d.body_excerpt, d.outcome, d.status, d.answer_excerpt, d.error, d.duration_ms,
             d.attempted_at
      FROM webhook_deliveries d
      WHERE ${condition}
      ORDER BY ${sql.join(order)}
      LIMIT ${limit} OFFSET ${offset}`.execute(trx);
    const count = await sql<{ n: string }>`
      SELECT count(*) AS n FROM webhook_deliveries d WHERE ${condition}`.execute(trx);
    return { rows: page.rows, total: Number(count.rows[0]?.n ?? 0) };
  });
  return {
    rows: rows.map((row) => ({ ...row, attempted_at: row.attempted_at.toISOString() })),
    lastRow: total,
  };
}
