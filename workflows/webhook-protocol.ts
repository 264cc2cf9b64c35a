import { defineSignal } from '@temporalio/workflow';

/**
 * What the webhook delivery workflow (webhook.workflow.ts), its activities (activities/webhooks.ts), the wake
 * reactor and the commands share. No node imports: the workflow bundle takes it too.
 */

export const WEBHOOK_WORKFLOW = 'webhookDeliveryWorkflow';

/** One workflow per endpoint: its deliveries are one ordered queue. */
export const webhookWorkflowId = (tenantId: string, subscriptionId: string) =>
  `webhook-${tenantId}-${subscriptionId}`;

/** New events of the endpoint's types may be in the log (the reactor), or its settings changed (a command). */
export const webhookWakeSignal = defineSignal('webhook.wake');

/** Send again what the log holds in a range of feed positions, `from` and `to` included (the seller's choice). */
export interface RedeliveryRange {
  from: string;
  to: string;
  /** Of one event only: its id (from the delivery log). */
  eventId?: string;
}
export const webhookRedeliverSignal = defineSignal<[RedeliveryRange]>('webhook.redeliver');

export interface WebhookTiming {
  /** The wait after each failed try (domain/webhooks STANDARD_RETRY_SCHEDULE_MS); spent, the endpoint is disabled. */
  retryScheduleMs: number[];
  /** How long a receiver may take to answer: past it, the try failed. */
  requestTimeoutMs: number;
  /** How long the workflow waits for a wake-up before it looks at the log anyway. */
  idleRecheckMs: number;
}

export interface WebhookWorkflowInput {
  tenantId: string;
  subscriptionId: string;
  /** Tests shorten these; production uses the workflow's defaults. */
  timing?: WebhookTiming;
  /** Carried over a continue-as-new. */
  carried?: { failing?: FailingEvent; redeliveries: RedeliveryRange[] };
}

/** The event at the head of the queue whose delivery failed, and how many tries it had. */
export interface FailingEvent {
  eventId: string;
  attempts: number;
}

export interface DeliverInput {
  tenantId: string;
  subscriptionId: string;
  /** The head of the queue's failed tries so far, so its next try is logged with the right number. */
  failing?: FailingEvent;
  requestTimeoutMs: number;
}

export type DeliverResult =
  /** Everything due is delivered; `more`: a full page went, the log may hold more at once. */
  | { kind: 'delivered'; count: number; more: boolean }
  /** The head of the queue failed (`attempts` tries so far): it waits for its next try. */
  | { kind: 'failed'; failing: FailingEvent }
  /** The receiver answered 410 Gone: the endpoint is disabled. */
  | { kind: 'gone' }
  /** The endpoint is disabled or deleted: nothing to do until it is enabled again. */
  | { kind: 'stopped' };

export interface RedeliverInput {
  tenantId: string;
  subscriptionId: string;
  range: RedeliveryRange;
  requestTimeoutMs: number;
}
