import type { Database } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { defineReactor, type Reactor } from '@projections/runtime/reactor';
import type { Kysely } from 'kysely';
import { PUBLISHED_TYPES } from './feed-source';
import { type WebhookWorkflows, wakeWebhook } from './wake';

export const WEBHOOK_WAKE_REACTOR = 'webhookWake';

/**
 * Wakes the delivery workflow of every enabled endpoint that subscribes to a type a batch of the log holds, in the
 * batch's accounts: the workflow then reads the events itself from its position, so a wake-up carries nothing and
 * a replayed or lost one changes nothing (the workflow also looks on its own now and then). One signal per endpoint
 * per batch, however many events.
 */
export function createWebhookWakeReactor(deps: {
  db: Kysely<Database>;
  workflows: WebhookWorkflows;
}): Reactor {
  async function reactBatch(events: readonly RecordedEvent[]): Promise<void> {
    const typesByTenant = new Map<string, Set<string>>();
    for (const event of events) {
      const tenantId = parseStreamId(event.stream)?.tenantId;
      if (!tenantId) continue;
      typesByTenant.set(tenantId, (typesByTenant.get(tenantId) ?? new Set()).add(event.type));
    }
    if (typesByTenant.size === 0) return;
    const endpoints = await deps.db
      .selectFrom('webhook_subscriptions')
      .select(['tenant_id', 'id', 'event_types'])
      .where('tenant_id', 'in', [...typesByTenant.keys()])
      .where('status', '=', 'enabled')
      .execute();
    await Promise.all(
      endpoints
        .filter((endpoint) =>
          endpoint.event_types.some((type) => typesByTenant.get(endpoint.tenant_id)?.has(type)),
        )
        .map((endpoint) => wakeWebhook(deps.workflows, endpoint.tenant_id, endpoint.id)),
    );
  }
  return defineReactor({
    name: WEBHOOK_WAKE_REACTOR,
    eventTypes: PUBLISHED_TYPES,
    react: (event) => reactBatch([event]),
    reactBatch,
  });
}
