import { type WorkflowDeps, workflowsUnavailable } from '@workflows/updates';
import {
  type RedeliveryRange,
  WEBHOOK_WORKFLOW,
  type WebhookTiming,
  type WebhookWorkflowInput,
  webhookRedeliverSignal,
  webhookWakeSignal,
  webhookWorkflowId,
} from '@workflows/webhook-protocol';

/** The workflow client, and the delivery timing tests shorten. */
export type WebhookWorkflows = WorkflowDeps & { webhookTiming?: WebhookTiming };

const startOf = (workflows: WebhookWorkflows, tenantId: string, subscriptionId: string) => {
  const input: WebhookWorkflowInput = {
    tenantId,
    subscriptionId,
    ...(workflows.webhookTiming ? { timing: workflows.webhookTiming } : {}),
  };
  return {
    workflowId: webhookWorkflowId(tenantId, subscriptionId),
    taskQueue: workflows.taskQueue,
    args: [input],
  };
};

async function reaching(signal: () => Promise<unknown>): Promise<void> {
  try {
    await signal();
  } catch {
    // What was changed is saved; the next event of the endpoint's types wakes it too (the wake reactor).
    throw workflowsUnavailable();
  }
}

/**
 * Wakes an endpoint's delivery workflow, starting it when it is not running (signal-with-start by the endpoint's
 * workflow id: one per endpoint, however many reactors and people send). By name, so the API and the reactors load
 * no workflow code.
 */
export function wakeWebhook(workflows: WebhookWorkflows, tenantId: string, subscriptionId: string) {
  return reaching(() =>
    workflows.client.workflow.signalWithStart(WEBHOOK_WORKFLOW, {
      ...startOf(workflows, tenantId, subscriptionId),
      signal: webhookWakeSignal,
      signalArgs: [],
    }),
  );
}

export function askRedelivery(
  workflows: WebhookWorkflows,
  tenantId: string,
  subscriptionId: string,
  range: RedeliveryRange,
) {
  return reaching(() =>
    workflows.client.workflow.signalWithStart(WEBHOOK_WORKFLOW, {
      ...startOf(workflows, tenantId, subscriptionId),
      signal: webhookRedeliverSignal,
      signalArgs: [range],
    }),
  );
}
