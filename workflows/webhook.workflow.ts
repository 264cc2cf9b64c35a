import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { retryDelayMs, STANDARD_RETRY_SCHEDULE_MS, warnsAfter } from '../domain/webhooks/subscriptions';
import type { createWebhookActivities } from './activities/webhooks';
import {
  type FailingEvent,
  type RedeliveryRange,
  type WebhookTiming,
  type WebhookWorkflowInput,
  webhookRedeliverSignal,
  webhookWakeSignal,
} from './webhook-protocol';

type WebhookActivities = ReturnType<typeof createWebhookActivities>;

const DEFAULT_TIMING: WebhookTiming = {
  retryScheduleMs: [...STANDARD_RETRY_SCHEDULE_MS],
  // Standard Webhooks recommends 15 to 30 s.
  requestTimeoutMs: 15_000,
  idleRecheckMs: 5 * 60_000,
};

/**
 * The database or the worker failing, not the receiver (a receiver's failure is a result): retried here. A worker
 * killed mid-delivery is noticed in seconds (the activity beats per event), and the next try starts from the
 * endpoint's saved position, so at most the events not yet saved as delivered go again, with the same webhook-id.
 */
const activities = proxyActivities<WebhookActivities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

/**
 * The deliveries of one endpoint, `webhook-<tenant>-<subscription>` (the wake reactor and the commands signal it
 * with start). It asks its activity to deliver whatever the log holds after the endpoint's position, in log order,
 * one event at a time; an event that fails waits with backoff and jitter (the Standard Webhooks schedule, about
 * three days) and nothing after it goes first, so the receiver sees the log's order. The seller is warned before
 * the schedule runs out and told when the endpoint is disabled; a 410 disables it at once. Asked redeliveries go
 * between two deliveries. Its history stays short: it continues as new when Temporal suggests it.
 */
export async function webhookDeliveryWorkflow(input: WebhookWorkflowInput): Promise<void> {
  const timing = input.timing ?? DEFAULT_TIMING;
  let failing: FailingEvent | undefined = input.carried?.failing;
  const redeliveries: RedeliveryRange[] = [...(input.carried?.redeliveries ?? [])];
  let wakes = 0;
  setHandler(webhookWakeSignal, () => {
    wakes++;
  });
  setHandler(webhookRedeliverSignal, (range) => {
    redeliveries.push(range);
  });
  const base = { tenantId: input.tenantId, subscriptionId: input.subscriptionId };

  for (;;) {
    const range = redeliveries.shift();
    if (range) {
      await activities.redeliverWebhookRange({ ...base, range, requestTimeoutMs: timing.requestTimeoutMs });
      continue;
    }
    const seen = wakes;
    const result = await activities.deliverWebhooks({
      ...base,
      ...(failing ? { failing } : {}),
      requestTimeoutMs: timing.requestTimeoutMs,
    });
    // Enabled again while the activity looked (its wake came meanwhile): look once more rather than end and lose it.
    if (result.kind === 'stopped' || result.kind === 'gone') {
      if (wakes > seen) continue;
      return;
    }
    if (result.kind === 'failed') {
      failing = result.failing;
      // Math.random is deterministic in a workflow (seeded per run): the jitter replays as it ran.
      const delay = retryDelayMs(timing.retryScheduleMs, failing.attempts, Math.random());
      if (delay === null) {
        await activities.disableFailingWebhook(base);
        // The next look finds it disabled and ends, unless the seller enabled it meanwhile: then it starts afresh.
        failing = undefined;
        continue;
      }
      if (warnsAfter(timing.retryScheduleMs, failing.attempts)) await activities.warnFailingWebhook(base);
      // New events do not cut the wait short (they queue behind the failing one); a redelivery asked meanwhile does.
      await condition(() => redeliveries.length > 0, delay);
    } else {
      failing = undefined;
      if (!result.more) await condition(() => wakes > seen || redeliveries.length > 0, timing.idleRecheckMs);
    }
    if (workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof webhookDeliveryWorkflow>({
        ...input,
        carried: { ...(failing ? { failing } : {}), redeliveries },
      });
    }
  }
}
