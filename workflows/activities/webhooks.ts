import { disableFailingWebhook, warnFailingWebhook } from '@commands/webhooks/announce';
import { type DeliveryDeps, deliverDue, redeliverRange } from '@commands/webhooks/deliver';
import { Context } from '@temporalio/activity';
import type { DeliverInput, RedeliverInput } from '../webhook-protocol';
import { final } from './final';

type Endpoint = { tenantId: string; subscriptionId: string };

/**
 * The activities of the webhook delivery workflow (workflows/webhook.workflow.ts): deliver what is due, redeliver a
 * range, warn the seller, disable an endpoint that kept failing. A receiver's failure is a result the workflow acts
 * on; only the database or the worker failing is thrown (and retried).
 */
export function createWebhookActivities(deps: Omit<DeliveryDeps, 'beat'>) {
  const beating = { ...deps, beat: () => Context.current().heartbeat() };
  return {
    deliverWebhooks: (input: DeliverInput) => final(() => deliverDue(beating, input)),
    redeliverWebhookRange: (input: RedeliverInput) => final(() => redeliverRange(beating, input)),
    warnFailingWebhook: (endpoint: Endpoint) =>
      final(() => warnFailingWebhook(deps.db, endpoint, new Date())),
    disableFailingWebhook: (endpoint: Endpoint) =>
      final(() => disableFailingWebhook(deps.db, endpoint, new Date())),
  };
}
