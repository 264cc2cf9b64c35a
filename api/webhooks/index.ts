import { GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { DeletedRecord } from '@api/contracts/ids';
import {
  DeliveryQuery,
  DeliveryRow,
  RedeliverAnswer,
  RedeliverBody,
  RotateBody,
  Webhook,
  WebhookBody,
  WebhookList,
  WebhookParams,
  WebhookWithSecret,
} from '@api/contracts/webhooks';
import { conflicts, router } from '@api/route';
import { PUBLISHED_TYPES } from '@commands/webhooks/feed-source';
import {
  addWebhook,
  answerOf,
  deleteWebhook,
  deliveriesOf,
  disableWebhook,
  enableWebhook,
  redeliverWebhook,
  rotateWebhookSecret,
  updateWebhook,
  type WebhookDeps,
} from '@commands/webhooks/subscriptions';
import type { PermissionKey } from '@domain/access/permissions';
import { webhooksOf } from '@projections/webhooks.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Webhook subscriptions (issue 16; console /settings/webhooks): every route needs `appstore` (spec §6 "Other:
 * appstore", the integrations an account plugs in). The signing secret is answered only when made: at creation and
 * at each rotation.
 */

const tags = ['webhooks'];
const APPSTORE = 'appstore' satisfies PermissionKey;

export const webhookRoutes: FastifyPluginAsyncZod<WebhookDeps> = async (app, deps) => {
  const route = router(app, { tags, access: { permission: APPSTORE } });
  const one = { params: WebhookParams, answer: Webhook };

  route.get(
    '/api/webhooks',
    { summary: "The account's webhook endpoints and the event types they may receive", answer: WebhookList },
    async (request) =>
      ok(request, {
        webhooks: await webhooksOf(deps.db, seller(request).tenantId),
        event_types: [...PUBLISHED_TYPES],
      }),
  );

  route.post(
    '/api/webhooks',
    {
      summary: 'Add an endpoint: https (private addresses refused); its signing secret is answered this once',
      body: WebhookBody,
      answer: WebhookWithSecret,
      errors: conflicts,
    },
    async (request) => ok(request, await addWebhook(deps, seller(request), request.body), 'webhooks.added'),
  );

  route.get('/api/webhooks/:id', { ...one, summary: 'One endpoint' }, async (request) =>
    ok(request, await answerOf(deps, seller(request), request.params.id)),
  );

  route.put(
    '/api/webhooks/:id',
    {
      ...one,
      summary: "Change an endpoint's URL, event types or description",
      body: WebhookBody,
      errors: conflicts,
    },
    async (request) =>
      ok(
        request,
        await updateWebhook(deps, seller(request), request.params.id, request.body),
        'webhooks.saved',
      ),
  );

  route.post(
    '/api/webhooks/:id/rotate',
    {
      params: WebhookParams,
      summary: 'A new signing secret (answered this once); the old one signs beside it for the window',
      body: RotateBody,
      answer: WebhookWithSecret,
      errors: conflicts,
    },
    async (request) =>
      ok(
        request,
        await rotateWebhookSecret(deps, seller(request), request.params.id, request.body),
        'webhooks.rotated',
      ),
  );

  route.post(
    '/api/webhooks/:id/enable',
    {
      ...one,
      summary: 'Enable an endpoint: deliveries resume at the event it had reached',
      errors: conflicts,
    },
    async (request) =>
      ok(request, await enableWebhook(deps, seller(request), request.params.id), 'webhooks.enabled'),
  );

  route.post(
    '/api/webhooks/:id/disable',
    { ...one, summary: 'Disable an endpoint: nothing more is sent until it is enabled', errors: conflicts },
    async (request) =>
      ok(request, await disableWebhook(deps, seller(request), request.params.id), 'webhooks.disabled_ok'),
  );

  route.delete(
    '/api/webhooks/:id',
    {
      params: WebhookParams,
      summary: 'Delete an endpoint and its delivery log',
      answer: DeletedRecord,
      errors: conflicts,
    },
    async (request) =>
      ok(request, await deleteWebhook(deps, seller(request), request.params.id), 'webhooks.deleted'),
  );

  route.get(
    '/api/webhooks/:id/deliveries',
    {
      params: WebhookParams,
      summary: "An endpoint's delivery log: each try's request, answer and timing, for ag-grid",
      query: DeliveryQuery,
      answer: GridPage(DeliveryRow),
    },
    async (request) =>
      ok(request, await deliveriesOf(deps, seller(request), request.params.id, request.query)),
  );

  route.post(
    '/api/webhooks/:id/redeliver',
    {
      params: WebhookParams,
      summary: 'Send again one event (by id) or every event of its types in a range of feed positions',
      body: RedeliverBody,
      answer: RedeliverAnswer,
      errors: conflicts,
    },
    async (request) =>
      ok(
        request,
        await redeliverWebhook(deps, seller(request), request.params.id, request.body),
        'webhooks.redelivery_asked',
      ),
  );
};
