import { randomUUID } from 'node:crypto';
import type { AutoBatchConfigAnswer, AutoBatchConfigBody, AutoBatchRunAnswer } from '@api/contracts/batches';
import { logActivity } from '@commands/support/activity';
import {
  type AutoBatchConfig,
  autoBatchErrors,
  autoBatchFingerprint,
  scheduleTimes,
} from '@domain/batches/auto-batch';
import { DEFAULT_DIGITS, DEFAULT_PREFIX } from '@domain/batches/batch';
import { spelledAsSpec } from '@domain/orders/marketplace-order';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { type AutoBatchOutcome, autoBatchManualWorkflowId } from '@workflows/auto-batch-protocol';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import {
  type AutoBatchConfigRow,
  type AutoBatchCountTrigger,
  type AutoBatchWorkflows,
  configOfRow,
  startAutoBatchRun,
  syncAutoBatchSchedule,
  waitingCounts,
} from './auto-batch';
import { tenantTimezone } from './manual';

/**
 * Auto batch configurations (spec §3 "Auto batch", §5 "A duplicate auto-batch configuration is rejected", §9 every 1
 * or 2 hours): list, create, change, delete, and run one now. Saving an active configuration creates or updates its
 * schedule; deactivating or deleting it removes the schedule; a schedule that cannot be saved (the workflows are
 * away) leaves the configuration as it was. Each change is logged with the row, in one transaction.
 */

const refuse = refuser(autoBatchErrors);

/** How long "run now" waits for the run's batches. */
const RUN_DEADLINE_MS = 30_000;

export interface AutoBatchConfigDeps {
  db: Kysely<Database>;
  workflows: AutoBatchWorkflows;
  trigger: Pick<AutoBatchCountTrigger, 'notify'>;
}

const pad = (value: number) => String(value).padStart(2, '0');

async function answerOf(db: Kysely<Database>, row: AutoBatchConfigRow): Promise<AutoBatchConfigAnswer> {
  const config = configOfRow(row);
  const counts = await waitingCounts(db, row.tenant_id, config);
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    interval_hours: row.interval_hours,
    start_time: row.start_time,
    end_time: row.end_time,
    max_orders: row.max_orders,
    split: row.split,
    type: row.type,
    condition: { store_ids: row.store_ids, platforms: row.platforms.map(spelledAsSpec) },
    prefix: row.prefix,
    digits: row.digits,
    timezone: row.timezone,
    times: scheduleTimes(config).map((time) => `${pad(time.hour)}:${pad(time.minute)}`),
    waiting_orders: counts.length ? Math.max(...counts) : 0,
    last_run_at: row.last_run_at ? row.last_run_at.toISOString() : null,
    last_batch_count: row.last_batch_count,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function rowOf(db: Kysely<Database>, tenantId: string, id: string): Promise<AutoBatchConfigRow> {
  const row = UUID.test(id)
    ? await db
        .selectFrom('auto_batch_configs')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id.toLowerCase())
        .executeTakeFirst()
    : undefined;
  if (!row) throw refuse('CONFIG_NOT_FOUND');
  return row;
}

/** The body as a configuration, its stores checked against the account (another account's store is refused). */
async function configOfBody(
  db: Kysely<Database>,
  tenantId: string,
  body: AutoBatchConfigBody,
  timezone: string,
): Promise<AutoBatchConfig> {
  const storeIds = [...new Set(body.condition.store_ids.map((id) => id.toLowerCase()))];
  if (storeIds.length > 0) {
    const found = storeIds.every((id) => UUID.test(id))
      ? await db
          .selectFrom('stores')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', storeIds)
          .execute()
      : [];
    if (found.length !== storeIds.length) throw refuse('CONDITION_INVALID');
  }
  return {
    name: body.name ?? '',
    active: body.active,
    intervalHours: body.interval_hours,
    startTime: body.start_time,
    endTime: body.end_time,
    maxOrders: body.max_orders,
    split: body.split,
    type: body.type,
    condition: { storeIds, platforms: [...new Set(body.condition.platforms)] },
    prefix: body.prefix ?? DEFAULT_PREFIX,
    digits: body.digits ?? DEFAULT_DIGITS,
    timezone,
  };
}

const columnsOf = (config: AutoBatchConfig) => ({
  name: config.name,
  active: config.active,
  interval_hours: config.intervalHours,
  start_time: config.startTime,
  end_time: config.endTime,
  max_orders: config.maxOrders,
  split: config.split,
  type: config.type,
  store_ids: config.condition.storeIds,
  platforms: config.condition.platforms,
  prefix: config.prefix,
  digits: config.digits,
  timezone: config.timezone,
  fingerprint: autoBatchFingerprint(config),
});

/** Runs `work` (a schedule change): the workflows not answering is a refusal to retry later, not a bug. */
async function scheduling<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const grpc = error as { code?: number };
    if (grpc.code === 4 || grpc.code === 14) throw refuse('WORKFLOWS_UNAVAILABLE');
    throw error;
  }
}

function duplicateRefused(error: unknown): never {
  if (violation(error, '23505')) throw refuse('DUPLICATE_CONFIG');
  throw error;
}

export async function listAutoBatchConfigs(
  db: Kysely<Database>,
  tenantId: string,
): Promise<AutoBatchConfigAnswer[]> {
  const rows = await db
    .selectFrom('auto_batch_configs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const answers: AutoBatchConfigAnswer[] = [];
  for (const row of rows) answers.push(await answerOf(db, row));
  return answers;
}

export async function createAutoBatchConfig(
  deps: AutoBatchConfigDeps,
  actor: Actor,
  input: { body: AutoBatchConfigBody; key?: string },
): Promise<AutoBatchConfigAnswer> {
  const { db } = deps;
  const config = await configOfBody(db, actor.tenantId, input.body, await tenantTimezone(db, actor.tenantId));
  const id = randomUUID();
  const row = await db
    .transaction()
    .execute(async (trx) => {
      const inserted = await trx
        .insertInto('auto_batch_configs')
        .values({ id, tenant_id: actor.tenantId, created_by: actor.userId, ...columnsOf(config) })
        .returningAll()
        .executeTakeFirstOrThrow();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: 'auto_batch.created',
        subjectType: 'auto_batch_config',
        subjectId: id,
        detail: { ...columnsOf(config), ...(input.key ? { key: input.key } : {}) },
      });
      await scheduling(() => syncAutoBatchSchedule(deps.workflows, actor.tenantId, id, config));
      return inserted;
    })
    .catch(duplicateRefused);
  deps.trigger.notify(actor.tenantId);
  return answerOf(db, row);
}

export async function updateAutoBatchConfig(
  deps: AutoBatchConfigDeps,
  actor: Actor,
  input: { id: string; body: AutoBatchConfigBody },
): Promise<AutoBatchConfigAnswer> {
  const { db } = deps;
  const before = await rowOf(db, actor.tenantId, input.id);
  const config = await configOfBody(db, actor.tenantId, input.body, before.timezone);
  const row = await db
    .transaction()
    .execute(async (trx) => {
      const updated = await trx
        .updateTable('auto_batch_configs')
        .set({ ...columnsOf(config), updated_at: new Date() })
        .where('tenant_id', '=', actor.tenantId)
        .where('id', '=', before.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: 'auto_batch.updated',
        subjectType: 'auto_batch_config',
        subjectId: before.id,
        detail: columnsOf(config),
      });
      await scheduling(() => syncAutoBatchSchedule(deps.workflows, actor.tenantId, before.id, config));
      return updated;
    })
    .catch(duplicateRefused);
  deps.trigger.notify(actor.tenantId);
  return answerOf(db, row);
}

export async function deleteAutoBatchConfig(
  deps: AutoBatchConfigDeps,
  actor: Actor,
  input: { id: string },
): Promise<{ id: string }> {
  const before = await rowOf(deps.db, actor.tenantId, input.id);
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('auto_batch_configs')
      .where('tenant_id', '=', actor.tenantId)
      .where('id', '=', before.id)
      .execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'auto_batch.deleted',
      subjectType: 'auto_batch_config',
      subjectId: before.id,
      detail: { name: before.name },
    });
    await scheduling(() => syncAutoBatchSchedule(deps.workflows, actor.tenantId, before.id, null));
  });
  return { id: before.id };
}

/** Runs an active configuration now, as its schedule would; a retry with the same key joins the same run. */
export async function runAutoBatchConfigNow(
  deps: AutoBatchConfigDeps,
  actor: Actor,
  input: { id: string; key?: string },
): Promise<AutoBatchRunAnswer> {
  const row = await rowOf(deps.db, actor.tenantId, input.id);
  if (!row.active) throw refuse('CONFIG_INACTIVE');
  const workflowId = autoBatchManualWorkflowId(actor.tenantId, row.id, input.key ?? randomUUID());
  const { client } = deps.workflows;
  const outcome = await scheduling(async () => {
    await startAutoBatchRun(
      deps.workflows,
      workflowId,
      { tenantId: actor.tenantId, configId: row.id, trigger: 'manual' },
      { once: true },
    );
    return client.connection.withDeadline(Date.now() + RUN_DEADLINE_MS, () =>
      client.workflow.getHandle(workflowId).result(),
    ) as Promise<AutoBatchOutcome>;
  });
  return {
    batches: outcome.batches.map((batch) => ({
      id: batch.batchId,
      label: batch.label,
      orders: batch.orderIds.length,
    })),
  };
}
