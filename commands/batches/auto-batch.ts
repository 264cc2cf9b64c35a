import {
  type AutoBatchConfig,
  type AutoBatchInterval,
  dayIn,
  scheduleTimes,
} from '@domain/batches/auto-batch';
import { type BatchSplit, type BatchType, planBatches } from '@domain/batches/batch';
import { spelledAsSpec } from '@domain/orders/marketplace-order';
import type { Database } from '@infra/db';
import type { AutoBatchConfigsTable } from '@infra/db/schema';
import { withTenant } from '@infra/db/tenant';
import { ORDER_COUNTS_VIEW } from '@projections/orders';
import type { LiveChange } from '@projections/runtime/projection';
import {
  type Client,
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  WorkflowExecutionAlreadyStartedError,
} from '@temporalio/client';
import {
  AUTO_BATCH_WORKFLOW,
  type AutoBatchWorkflowInput,
  autoBatchFullWorkflowId,
  autoBatchScheduleId,
} from '@workflows/auto-batch-protocol';
import { type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { BatchSettings } from './batching';

/**
 * Auto batch (spec §3, §4, §9): the orders waiting for a configuration, the plan of the batches they make, the
 * schedule of each active configuration (Temporal Schedules, every 1 or 2 hours inside its window, in the account's
 * time zone), and the count trigger that starts the configuration's "full" run as soon as its waiting orders reach
 * the maximum. The batches themselves are made by the workflow (workflows/auto-batch.workflow.ts) through
 * createPlannedBatch (batching.ts).
 */

export type AutoBatchConfigRow = Selectable<AutoBatchConfigsTable>;

export const configOfRow = (row: AutoBatchConfigRow): AutoBatchConfig => ({
  name: row.name,
  active: row.active,
  intervalHours: row.interval_hours as AutoBatchInterval,
  startTime: row.start_time,
  endTime: row.end_time,
  maxOrders: row.max_orders,
  split: row.split,
  type: row.type,
  condition: { storeIds: row.store_ids, platforms: row.platforms.map(spelledAsSpec) },
  prefix: row.prefix,
  digits: row.digits,
  timezone: row.timezone,
});

export async function loadAutoBatchConfig(
  db: Kysely<Database>,
  tenantId: string,
  configId: string,
): Promise<AutoBatchConfigRow | undefined> {
  return db
    .selectFrom('auto_batch_configs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', configId)
    .executeTakeFirst();
}

// ---- the waiting orders ----

export interface WaitingOrder {
  orderId: string;
  shippingProvider: string | null;
  paymentMethod: string | null;
}

/**
 * Orders a configuration would batch, from the order board's read model: new or unscan, in no batch, claimed by no
 * batch in the making, matching its type and condition.
 */
function waitingWhere(config: Pick<AutoBatchConfig, 'type' | 'condition'>) {
  const parts = [
    sql<SqlBool>`o.status IN ('new', 'unscan')`,
    sql<SqlBool>`o.batch_id IS NULL`,
    sql<SqlBool>`o.pre_order = ${config.type === 'pre-order'}`,
    sql<SqlBool>`NOT EXISTS (
      SELECT 1 FROM batch_claims c
      WHERE c.tenant_id = o.tenant_id AND c.order_id = o.id
        AND (c.confirmed OR c.claimed_at > now() - interval '10 minutes'))`,
  ];
  if (config.condition.storeIds.length > 0) {
    parts.push(sql<SqlBool>`o.store_id IN (${sql.join(config.condition.storeIds)})`);
  }
  if (config.condition.platforms.length > 0) {
    parts.push(sql<SqlBool>`o.platform IN (${sql.join(config.condition.platforms)})`);
  }
  return sql.join(parts, sql` AND `);
}

/** The orders waiting for a configuration, oldest first (paid, else ordered); at most `limit`. */
export async function waitingOrders(
  db: Kysely<Database>,
  tenantId: string,
  config: Pick<AutoBatchConfig, 'type' | 'condition'>,
  limit = 5000,
): Promise<WaitingOrder[]> {
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<{ order_id: string; shipping_provider: string | null; payment_method: string }>`
      SELECT o.id AS order_id, o.shipping_provider, o.payment_method FROM orders o
      WHERE o.tenant_id = ${tenantId} AND ${waitingWhere(config)}
      ORDER BY coalesce(o.paid_at, o.ordered_at), o.order_number, o.id
      LIMIT ${limit}`.execute(trx);
    return rows.rows.map((row) => ({
      orderId: row.order_id,
      shippingProvider: row.shipping_provider,
      paymentMethod: row.payment_method,
    }));
  });
}

/** How many orders wait for a configuration, per group of its split (one group when it does not split). */
export async function waitingCounts(
  db: Kysely<Database>,
  tenantId: string,
  config: Pick<AutoBatchConfig, 'type' | 'condition' | 'split'>,
): Promise<number[]> {
  // The group as groupOf (domain/batches/batch.ts) makes it; without a split, one count.
  const group =
    config.split === 'logistics'
      ? sql`GROUP BY coalesce(btrim(o.shipping_provider), '')`
      : config.split === 'payment'
        ? sql`GROUP BY coalesce(btrim(o.payment_method), '')`
        : sql``;
  return withTenant(db, tenantId, async (trx) => {
    const rows = await sql<{ n: number }>`
      SELECT count(*)::int4 AS n FROM orders o
      WHERE o.tenant_id = ${tenantId} AND ${waitingWhere(config)}
      ${group}`.execute(trx);
    return rows.rows.map((row) => row.n);
  });
}

// ---- a run's plan ----

export interface AutoBatchPlan {
  settings: BatchSettings;
  /** When the run makes its batches (every event of the run carries it). */
  at: string;
  chunks: { group: string | null; orderIds: string[] }[];
}

/**
 * What a run of a configuration batches: every waiting order (schedule, manual), or only full batches (count).
 * Null when the configuration is gone or inactive.
 */
export async function planAutoBatch(
  db: Kysely<Database>,
  input: AutoBatchWorkflowInput,
  now: Date,
): Promise<AutoBatchPlan | null> {
  const row = await loadAutoBatchConfig(db, input.tenantId, input.configId);
  if (!row?.active) return null;
  const config = configOfRow(row);
  const orders = await waitingOrders(db, input.tenantId, config);
  const chunks = planBatches(orders, {
    split: config.split,
    maxOrders: config.maxOrders,
    fullOnly: input.trigger === 'count',
  }).map((chunk) => ({ group: chunk.group, orderIds: chunk.orders.map((order) => order.orderId) }));
  return {
    at: now.toISOString(),
    settings: settingsOf(input.configId, config, now),
    chunks,
  };
}

export function settingsOf(configId: string, config: AutoBatchConfig, now: Date): BatchSettings {
  return {
    name: config.name || null,
    prefix: config.prefix,
    digits: config.digits,
    type: config.type as BatchType,
    pickerId: null,
    maxOrders: config.maxOrders,
    split: config.split as BatchSplit,
    date: dayIn(config.timezone, now),
    source: 'auto',
    configId,
  };
}

export async function recordAutoBatchRun(
  db: Kysely<Database>,
  tenantId: string,
  configId: string,
  batches: number,
): Promise<void> {
  await db
    .updateTable('auto_batch_configs')
    .set({ last_run_at: new Date(), last_batch_count: batches })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', configId)
    .execute();
}

// ---- schedules ----

export interface AutoBatchWorkflows {
  client: Client;
  taskQueue: string;
}

/** The schedule's spec: the times of the window, every day, in the configuration's time zone. */
export function scheduleSpecOf(config: AutoBatchConfig) {
  const times = scheduleTimes(config);
  return {
    calendars: [
      {
        hour: times.map((time) => time.hour),
        minute: times[0]?.minute ?? 0,
        comment: `every ${config.intervalHours} h from ${config.startTime} to ${config.endTime}`,
      },
    ],
    timezone: config.timezone,
  };
}

/**
 * Makes the configuration's schedule match it: created or updated while it is active, deleted when it is not (or is
 * gone: pass null).
 */
export async function syncAutoBatchSchedule(
  workflows: AutoBatchWorkflows,
  tenantId: string,
  configId: string,
  config: AutoBatchConfig | null,
): Promise<void> {
  const scheduleId = autoBatchScheduleId(tenantId, configId);
  const handle = workflows.client.schedule.getHandle(scheduleId);
  if (!config?.active) {
    await handle.delete().catch((error: unknown) => {
      if (!(error instanceof ScheduleNotFoundError)) throw error;
    });
    return;
  }
  const spec = scheduleSpecOf(config);
  const action = {
    type: 'startWorkflow' as const,
    workflowType: AUTO_BATCH_WORKFLOW,
    workflowId: scheduleId,
    taskQueue: workflows.taskQueue,
    args: [{ tenantId, configId, trigger: 'schedule' } satisfies AutoBatchWorkflowInput],
  };
  try {
    await workflows.client.schedule.create({ scheduleId, spec, action });
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await handle.update((previous) => ({ ...previous, spec, action }));
  }
}

// ---- the count trigger ----

/**
 * Starts a run of the configuration; a run of the same id still going is joined, not doubled. With `once`, a run of
 * that id that already ended is not started again either (a retried "run now" answers the first run's batches).
 */
export async function startAutoBatchRun(
  workflows: AutoBatchWorkflows,
  workflowId: string,
  input: AutoBatchWorkflowInput,
  opts: { once?: boolean } = {},
): Promise<void> {
  try {
    await workflows.client.workflow.start(AUTO_BATCH_WORKFLOW, {
      taskQueue: workflows.taskQueue,
      workflowId,
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: opts.once ? 'REJECT_DUPLICATE' : 'ALLOW_DUPLICATE',
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/**
 * The count trigger: for each active configuration of the account whose waiting orders (in one group of its split)
 * reached the maximum, starts its "full" run. Returns the configurations it started. Two triggers at once start one
 * run (the run's id is the configuration's); a trigger after the run re-counts, finds fewer than the maximum, and
 * starts nothing.
 */
export async function triggerFullAutoBatches(
  db: Kysely<Database>,
  workflows: AutoBatchWorkflows,
  tenantId: string,
): Promise<string[]> {
  const configs = await db
    .selectFrom('auto_batch_configs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('active', '=', true)
    .execute();
  const started: string[] = [];
  for (const row of configs) {
    const counts = await waitingCounts(db, tenantId, configOfRow(row));
    if (!counts.some((count) => count >= row.max_orders)) continue;
    await startAutoBatchRun(workflows, autoBatchFullWorkflowId(tenantId, row.id), {
      tenantId,
      configId: row.id,
      trigger: 'count',
    });
    started.push(row.id);
  }
  return started;
}

/**
 * Runs the count trigger for accounts whose orders arrived or changed status (the order board's live view
 * `orderCounts`, published once its rows are written). One check per account at a time; changes arriving meanwhile make one
 * more check after it. A failure is reported and forgotten: the next change, or the schedule, batches those orders.
 */
export class AutoBatchCountTrigger {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly workflows: AutoBatchWorkflows,
    private readonly onError: (error: unknown, tenantId: string) => void = () => undefined,
  ) {}

  notify(tenantId: string): void {
    if (this.running.has(tenantId)) {
      this.again.add(tenantId);
      return;
    }
    const run = (async () => {
      do {
        this.again.delete(tenantId);
        try {
          await triggerFullAutoBatches(this.db, this.workflows, tenantId);
        } catch (error) {
          this.onError(error, tenantId);
        }
      } while (this.again.has(tenantId));
    })().finally(() => this.running.delete(tenantId));
    this.running.set(tenantId, run);
  }

  /** Resolves when no check is running (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }
}

/** Feeds the trigger every change of the board's counts; returns the unsubscribe. */
export function followOrderCounts(
  hub: { subscribe(listener: (change: LiveChange) => void): () => void },
  trigger: Pick<AutoBatchCountTrigger, 'notify'>,
): () => void {
  return hub.subscribe((change) => {
    if (change.view === ORDER_COUNTS_VIEW) trigger.notify(change.tenantId);
  });
}
