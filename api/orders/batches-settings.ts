import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  ActionBody,
  AutoBatchConfigAnswer,
  AutoBatchConfigBody,
  AutoBatchRunAnswer,
  DeletedConfig,
} from '@api/contracts/batches';
import { IdParams } from '@api/contracts/ids';
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
import { BATCH_KEY, type BatchDeps, batchTags, idempotencyKeyOf } from './batches-common';

/**
 * Auto batch configurations (/orders/batch-setting; commands/batches/auto-batch-configs.ts): list, create, change,
 * delete, and run one now. A schedule that cannot be saved answers 503; a configuration that batches the same orders
 * the same way as another answers 409 "Duplicate config".
 */

const tags = [...batchTags, 'auto-batch'];

export interface SettingsDeps extends Omit<BatchDeps, 'trigger'> {
  trigger: Pick<AutoBatchCountTrigger, 'notify'>;
}

const conflicts = { 409: ErrorAnswer, 503: ErrorAnswer };

export const batchSettingsRoutes: FastifyPluginAsyncZod<SettingsDeps> = async (app, deps) => {
  app.get(
    '/api/orders/batch-settings',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          "The account's auto batch configurations, with the times they run and the orders waiting for each",
        response: { 200: Ok(z.array(AutoBatchConfigAnswer)), ...refusals },
      },
    },
    async (request) => ok(request, await listAutoBatchConfigs(deps.db, seller(request).tenantId)),
  );

  app.post(
    '/api/orders/batch-settings',
    {
      config: { access: { permission: BATCH_KEY } },
      schema: {
        tags,
        summary:
          'Add an auto batch configuration: active, every 1 or 2 hours from start to end time, most orders per batch, split, type, extra condition (stores, platforms); 409 "Duplicate config" when one batches the same way already',
        body: AutoBatchConfigBody,
        response: { 200: Ok(AutoBatchConfigAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const key = idempotencyKeyOf(request, request.body.idempotency_key);
      const config = await createAutoBatchConfig(deps, seller(request), { body: request.body, key });
      return ok(request, config, 'batch.config_created');
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
        body: AutoBatchConfigBody,
        response: { 200: Ok(AutoBatchConfigAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const config = await updateAutoBatchConfig(deps, seller(request), {
        id: request.params.id,
        body: request.body,
      });
      return ok(request, config, 'batch.config_updated');
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
        response: { 200: Ok(DeletedConfig), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(
        request,
        await deleteAutoBatchConfig(deps, seller(request), { id: request.params.id }),
        'batch.config_deleted',
      ),
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
        body: ActionBody,
        response: { 200: Ok(AutoBatchRunAnswer), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const key = idempotencyKeyOf(request, request.body?.idempotency_key);
      const run = await runAutoBatchConfigNow(deps, seller(request), { id: request.params.id, key });
      return ok(request, run, 'batch.created', { count: run.batches.length });
    },
  );
};
