import { randomUUID } from 'node:crypto';
import { logActivity } from '@api/activity';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
import { IdParams, isUuid } from '@api/ids';
import { UPDATE_DEADLINE_MS } from '@api/workflows';
import {
  type AutoBatchConfigRow,
  type AutoBatchCountTrigger,
  configOfRow,
  startAutoBatchRun,
  syncAutoBatchSchedule,
  waitingCounts,
} from '@commands/batches/auto-batch';
import {
  AUTO_BATCH_INTERVALS,
  AUTO_BATCH_NAME_MAX,
  type AutoBatchConfig,
  autoBatchFingerprint,
  CONDITION_STORES_MAX,
  scheduleTimes,
  TIME_PATTERN,
  windowValid,
} from '@domain/batches/auto-batch';
import { BATCH_SPLITS, BATCH_TYPES, DEFAULT_DIGITS, DEFAULT_PREFIX } from '@domain/batches/batch';
import { PLATFORMS } from '@domain/orders/marketplace-order';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { type AutoBatchOutcome, autoBatchManualWorkflowId } from '@workflows/auto-batch-protocol';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { Digits, MaxOrders, Prefix, tenantTimezone } from './batches-actions';
import {
  BATCH_KEY,
  BatchCode,
  type BatchDeps,
  batchTags,
  IdempotencyKey,
  idempotencyKeyOf,
  Name,
} from './batches-common';

/**
 * Auto batch configurations (/orders/batch-setting; spec §3 "Auto batch", §5 "A duplicate auto-batch configuration
 * is rejected", §9 every 1 or 2 hours): list, create, change, delete, and run one now. Saving an active
 * configuration creates or updates its schedule (commands/batches/auto-batch.ts); deactivating or deleting it
 * removes the schedule; a schedule that cannot be saved (the workflows are away) leaves the configuration as it was
 * (503). A configuration that batches the same orders the same way as another is refused: 409 "Duplicate config".
 */

const tags = [...batchTags, 'auto-batch'];

export interface SettingsDeps extends Omit<BatchDeps, 'trigger'> {
  trigger: Pick<AutoBatchCountTrigger, 'notify'>;
}

const intervalInvalid = invalid(BatchCode.intervalInvalid, 'batch.interval_invalid');
const timeInvalid = invalid(BatchCode.timeInvalid, 'batch.time_invalid');
const conditionInvalid = invalid(BatchCode.conditionInvalid, 'batch.condition_invalid');
const Time = z.string({ error: timeInvalid }).regex(TIME_PATTERN, timeInvalid);

const ConfigBody = z
  .strictObject({
    name: Name(AUTO_BATCH_NAME_MAX).optional(),
    active: z.boolean({ error: invalid(400, 'batch.active_invalid') }),
    interval_hours: z.union(
      AUTO_BATCH_INTERVALS.map((hours) => z.literal(hours)),
      { error: intervalInvalid },
    ),
    start_time: Time,
    end_time: Time,
    max_orders: MaxOrders,
    split: z.enum(BATCH_SPLITS, { error: invalid(400, 'batch.split_invalid') }).default('none'),
    type: z.enum(BATCH_TYPES, { error: invalid(400, 'batch.type_invalid') }).default('normal'),
    condition: z
      .strictObject(
        {
          store_ids: z
            .array(z.string({ error: conditionInvalid }).max(64, conditionInvalid), {
              error: conditionInvalid,
            })
            .max(CONDITION_STORES_MAX, conditionInvalid)
            .default([]),
          platforms: z
            .array(z.enum(PLATFORMS, { error: conditionInvalid }), { error: conditionInvalid })
            .max(PLATFORMS.length, conditionInvalid)
            .default([]),
        },
        { error: conditionInvalid },
      )
      .default({ store_ids: [], platforms: [] }),
    prefix: Prefix.optional(),
    digits: Digits.optional(),
    idempotency_key: IdempotencyKey.optional(),
  })
  .superRefine((body, ctx) => {
    if (!windowValid(body.start_time, body.end_time)) {
      ctx.addIssue({ code: 'custom', path: ['end_time'], message: timeInvalid });
    }
  });
type ConfigBody = z.infer<typeof ConfigBody>;

const ConfigAnswer = z.object({
  id: z.string(),
  name: z.string(),
  active: z.boolean(),
  interval_hours: z.number().int(),
  start_time: z.string(),
  end_time: z.string(),
  max_orders: z.number().int(),
  split: z.enum(BATCH_SPLITS),
  type: z.enum(BATCH_TYPES),
  condition: z.object({ store_ids: z.array(z.string()), platforms: z.array(z.string()) }),
  prefix: z.string(),
  digits: z.number().int(),
  timezone: z.string(),
  /** The times of day its schedule runs, `HH:MM`. */
  times: z.array(z.string()),
  /** Orders waiting for it now (in its largest group when it splits). */
  waiting_orders: z.number().int(),
  last_run_at: z.string().nullable(),
  last_batch_count: z.number().int().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
type ConfigAnswer = z.infer<typeof ConfigAnswer>;

const pad = (value: number) => String(value).padStart(2, '0');

async function configAnswer(db: Kysely<Database>, row: AutoBatchConfigRow): Promise<ConfigAnswer> {
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
    condition: { store_ids: row.store_ids, platforms: row.platforms },
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

/** The body as a configuration, its stores checked against the account (another account's store: 400). */
async function configOfBody(
  db: Kysely<Database>,
  tenantId: string,
  body: ConfigBody,
  timezone: string,
): Promise<AutoBatchConfig> {
  const storeIds = [...new Set(body.condition.store_ids.map((id) => id.toLowerCase()))];
  if (storeIds.length > 0) {
    const found = storeIds.every(isUuid)
      ? await db
          .selectFrom('stores')
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', storeIds)
          .execute()
      : [];
    if (found.length !== storeIds.length) {
      throw new ApiError(400, BatchCode.conditionInvalid, 'batch.condition_invalid');
    }
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

const duplicate = () => new ApiError(409, BatchCode.duplicateConfig, 'batch.duplicate_config');
const unavailable = () => new ApiError(503, 503, 'common.workflows_unavailable');

/** Runs `work` (a schedule change): the workflows not answering is a 503, not a bug. */
async function scheduling<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const grpc = error as { code?: number };
    if (grpc.code === 4 || grpc.code === 14) throw unavailable();
    throw error;
  }
}

const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };

export const batchSettingsRoutes: FastifyPluginAsyncZod<SettingsDeps> = async (app, deps) => {
  const { db } = deps;

  async function rowOf(tenantId: string, id: string): Promise<AutoBatchConfigRow> {
    const row = isUuid(id)
      ? await db
          .selectFrom('auto_batch_configs')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where('id', '=', id.toLowerCase())
          .executeTakeFirst()
      : undefined;
    if (!row) throw notFound();
    return row;
  }

  app.get(
    '/api/orders/batch-settings',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          "The account's auto batch configurations, with the times they run and the orders waiting for each",
        response: { 200: Ok(z.array(ConfigAnswer)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await db
        .selectFrom('auto_batch_configs')
        .selectAll()
        .where('tenant_id', '=', tenantId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      const answers: ConfigAnswer[] = [];
      for (const row of rows) answers.push(await configAnswer(db, row));
      return ok(request, answers);
    },
  );

  app.post(
    '/api/orders/batch-settings',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Add an auto batch configuration: active, every 1 or 2 hours from start to end time, most orders per batch, split, type, extra condition (stores, platforms); 409 "Duplicate config" when one batches the same way already',
        body: ConfigBody,
        response: { 200: Ok(ConfigAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      const config = await configOfBody(
        db,
        session.tenantId,
        request.body,
        await tenantTimezone(db, session.tenantId),
      );
      const id = randomUUID();
      const row = await db
        .transaction()
        .execute(async (trx) => {
          const inserted = await trx
            .insertInto('auto_batch_configs')
            .values({ id, tenant_id: session.tenantId, created_by: session.userId, ...columnsOf(config) })
            .returningAll()
            .executeTakeFirstOrThrow();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: 'auto_batch.created',
            subjectType: 'auto_batch_config',
            subjectId: id,
            detail: { ...columnsOf(config), ...(key ? { key } : {}) },
          });
          await scheduling(() => syncAutoBatchSchedule(deps.workflows, session.tenantId, id, config));
          return inserted;
        })
        .catch((error: unknown) => {
          if (violation(error, '23505')) throw duplicate();
          throw error;
        });
      deps.trigger.notify(session.tenantId);
      return ok(request, await configAnswer(db, row), 'batch.config_created');
    },
  );

  app.put(
    '/api/orders/batch-settings/:id',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Change an auto batch configuration (its schedule follows); 409 "Duplicate config" as on create',
        params: IdParams,
        body: ConfigBody,
        response: { 200: Ok(ConfigAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const before = await rowOf(session.tenantId, request.params.id);
      const config = await configOfBody(db, session.tenantId, request.body, before.timezone);
      const row = await db
        .transaction()
        .execute(async (trx) => {
          const updated = await trx
            .updateTable('auto_batch_configs')
            .set({ ...columnsOf(config), updated_at: new Date() })
            .where('tenant_id', '=', session.tenantId)
            .where('id', '=', before.id)
            .returningAll()
            .executeTakeFirstOrThrow();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: 'auto_batch.updated',
            subjectType: 'auto_batch_config',
            subjectId: before.id,
            detail: columnsOf(config),
          });
          await scheduling(() => syncAutoBatchSchedule(deps.workflows, session.tenantId, before.id, config));
          return updated;
        })
        .catch((error: unknown) => {
          if (violation(error, '23505')) throw duplicate();
          throw error;
        });
      deps.trigger.notify(session.tenantId);
      return ok(request, await configAnswer(db, row), 'batch.config_updated');
    },
  );

  app.delete(
    '/api/orders/batch-settings/:id',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary: 'Delete an auto batch configuration and its schedule (batches it made stay)',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const before = await rowOf(session.tenantId, request.params.id);
      await db.transaction().execute(async (trx) => {
        await trx
          .deleteFrom('auto_batch_configs')
          .where('tenant_id', '=', session.tenantId)
          .where('id', '=', before.id)
          .execute();
        await logActivity(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          action: 'auto_batch.deleted',
          subjectType: 'auto_batch_config',
          subjectId: before.id,
          detail: { name: before.name },
        });
        await scheduling(() => syncAutoBatchSchedule(deps.workflows, session.tenantId, before.id, null));
      });
      return ok(request, { id: before.id }, 'batch.config_deleted');
    },
  );

  app.post(
    '/api/orders/batch-settings/:id/run',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Run an active configuration now, as its schedule would: every waiting order batched (Idempotency-Key: a retry joins the same run)',
        params: IdParams,
        body: z.strictObject({ idempotency_key: IdempotencyKey.optional() }).optional(),
        response: {
          200: Ok(
            z.object({
              batches: z.array(z.object({ id: z.string(), label: z.string(), orders: z.number() })),
            }),
          ),
          ...refusals,
          ...conflicts,
        },
      },
    },
    async (request) => {
      const session = seller(request);
      const row = await rowOf(session.tenantId, request.params.id);
      if (!row.active) throw new ApiError(409, 409, 'batch.config_inactive');
      const key = idempotencyKeyOf(request, request.body?.idempotency_key) ?? randomUUID();
      const workflowId = autoBatchManualWorkflowId(session.tenantId, row.id, key);
      const outcome = await scheduling(async () => {
        await startAutoBatchRun(
          deps.workflows,
          workflowId,
          { tenantId: session.tenantId, configId: row.id, trigger: 'manual' },
          { once: true },
        );
        return deps.workflows.client.connection.withDeadline(Date.now() + UPDATE_DEADLINE_MS, () =>
          deps.workflows.client.workflow.getHandle(workflowId).result(),
        ) as Promise<AutoBatchOutcome>;
      });
      return ok(
        request,
        {
          batches: outcome.batches.map((batch) => ({
            id: batch.batchId,
            label: batch.label,
            orders: batch.orderIds.length,
          })),
        },
        'batch.created',
        { count: outcome.batches.length },
      );
    },
  );
};
