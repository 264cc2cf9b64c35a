import type { PromotionDetail } from '@api/contracts/promotions';
import { promotionStore } from '@projections/promotions.queries';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { type PromotionDeps, promotionDetailOf, promotionOrRefuse, promotions } from './support';

/**
 * A promotion stopped by hand before its end (§4 "stopped (manually)"): recorded at once — Kedai's own view of it
 * changes now — then ended on its channel by the push workflow the reactor starts, which records the answer. One that has
 * ended or was stopped already is refused.
 */
export async function stopPromotion(
  deps: PromotionDeps,
  actor: Actor,
  input: { promotionId: string },
): Promise<Answered<PromotionDetail>> {
  await promotionOrRefuse(deps.store, actor.tenantId, input.promotionId);
  const at = new Date().toISOString();
  const result = await promotions.handle(
    deps.store,
    input.promotionId,
    { type: 'StopPromotion', userId: actor.userId, at },
    {
      tenantId: actor.tenantId,
      userId: actor.userId,
      commandId: `promotion-stop:${input.promotionId}`,
      occurredAt: at,
    },
  );
  const store = await promotionStore(deps.db, actor.tenantId, result.state.storeId);
  return [promotionDetailOf(input.promotionId, result.state, store, new Date()), 'promotions.stopped'];
}
