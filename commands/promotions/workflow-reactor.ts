import { parseStreamId } from '@infra/eventstore/port';
import { defineReactor } from '@projections/runtime/reactor';
import type { WorkflowDeps } from '@workflows/updates';
import { PROMOTION_CATEGORY, startPromotionPush } from './support';

/**
 * Every promotion is pushed to its channel from its creation, and ended there once stopped: this reactor starts the
 * push (a start that fails is retried by the reactor runner). The workflow's id is the promotion and the action, so
 * a replay starts nothing twice.
 */
export function createPromotionPushReactor(deps: { workflows: WorkflowDeps }) {
  return defineReactor({
    name: 'promotion-pushes',
    eventTypes: ['PromotionCreated', 'PromotionStopped'],
    async react(event) {
      const stream = parseStreamId(event.stream);
      if (!stream || stream.category !== PROMOTION_CATEGORY) return;
      await startPromotionPush(deps.workflows, {
        tenantId: stream.tenantId,
        promotionId: stream.entityKey,
        action: event.type === 'PromotionCreated' ? 'create' : 'end',
      });
    },
  });
}
