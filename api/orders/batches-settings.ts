import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ActionBody,
  AutoBatchConfigAnswer,
  AutoBatchConfigBody,
  AutoBatchRunAnswer,
  DeletedConfig,
} from '@api/contracts/batches';
import { IdParams } from '@api/contracts/ids';
import { conflicts, router } from '@api/route';
import type { AutoBatchCountTrigger } from '@commands/batches/auto-batch';
import {
  createAutoBatchConfig,
  deleteAutoBatchConfig,
  listAutoBatchConfigs,
  runAutoBatchConfigNow,
  updateAutoBatchConfig,
} from '@commands/batches/auto-batch-configs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type BatchDeps, batchAccess, batchTags, idempotencyKeyOf } from './batches-common';

/**
 * Auto batch configurations (/orders/batch-setting): list, create, change, delete, and run one now. A schedule that
 * cannot be saved answers 503; one that batches the same orders the same way as another, 409 "Duplicate config".
 */

export interface SettingsDeps extends Omit<BatchDeps, 'trigger'> {
  trigger: Pick<AutoBatchCountTrigger, 'notify'>;
}

const BASE = '/api/orders/batch-settings';
const oneOf = { params: IdParams, errors: conflicts } as const;

export const batchSettingsRoutes: FastifyPluginAsyncZod<SettingsDeps> = async (app, deps) => {
  const route = router(app, { tags: [...batchTags, 'auto-batch'], access: batchAccess });

  route.get(
    BASE,
    {
      summary:
        "The account's auto batch configurations, with the times they run and the orders waiting for each",
      answer: z.array(AutoBatchConfigAnswer),
    },
    async (request) => ok(request, await listAutoBatchConfigs(deps.db, seller(request).tenantId)),
  );

  route.post(
    BASE,
    {
      summary:
        'Add an auto batch configuration: active, every 1 or 2 hours from start to end time, most orders per batch, split, type, extra condition (stores, platforms); 409 "Duplicate config" when one batches the same way already',
      body: AutoBatchConfigBody,
      answer: AutoBatchConfigAnswer,
      errors: conflicts,
    },
    async (request) => {
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      const config = await createAutoBatchConfig(deps, seller(request), { body: request.body, key });
      return ok(request, config, 'batch.config_created');
    },
  );

  route.put(
    `${BASE}/:id`,
    {
      summary:
        'Change an auto batch configuration (its schedule follows); 409 "Duplicate config" as on create',
      ...oneOf,
      body: AutoBatchConfigBody,
      answer: AutoBatchConfigAnswer,
    },
    async (request) => {
      const input = { id: request.params.id, body: request.body };
      return ok(request, await updateAutoBatchConfig(deps, seller(request), input), 'batch.config_updated');
    },
  );

  route.delete(
    `${BASE}/:id`,
    {
      summary: 'Delete an auto batch configuration and its schedule (batches it made stay)',
      ...oneOf,
      answer: DeletedConfig,
    },
    async (request) =>
      ok(request, await deleteAutoBatchConfig(deps, seller(request), request.params), 'batch.config_deleted'),
  );

  route.post(
    `${BASE}/:id/run`,
    {
      summary:
        'Run an active configuration now, as its schedule would: every waiting order batched (Idempotency-Key: a retry joins the same run)',
      ...oneOf,
      body: ActionBody,
      answer: AutoBatchRunAnswer,
    },
    async (request) => {
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      const run = await runAutoBatchConfigNow(deps, seller(request), { id: request.params.id, key });
      return ok(request, run, 'batch.created', { count: run.batches.length });
    },
  );
};
