import { PROMOTION_EVENT_TYPES, type PromotionEvent } from '@domain/promotions/events';
import { PRICE_RULE_CATEGORY, type PriceRuleSavedData } from '@domain/promotions/pricing';
import { evolve, initialState, PROMOTION_CATEGORY, type PromotionState } from '@domain/promotions/promotion';
import { LIVE_VIEWS } from '@domain/shared/live-views';
import type { Database } from '@infra/db';
import { parseStreamId, type RecordedEvent } from '@infra/eventstore/port';
import { type Insertable, sql, type Transaction } from 'kysely';
import { defineProjection, type LiveChange, mergeChanges } from './runtime/projection';

/**
 * The promotions' read models, from their events (domain/promotions): `promotions`, one row per discount or gift
 * promotion with the folded promotion in `state` (the decider's own `evolve`, so a rebuild folds the same rows);
 * and `price_rules`, each store's latest rule. Live changes name promotions in the view `promotions`. Price pushes
 * are in the push log (projections/push-log.ts).
 */

export const PROMOTIONS_PROJECTION = 'promotions';

const itemCount = (state: PromotionState) =>
  state.discount ? state.discount.items.length : (state.gift?.gifts.length ?? 0);

function promotionRow(tenantId: string, id: string, state: PromotionState, revision: bigint) {
  return {
    tenant_id: tenantId,
    id,
    kind: state.kind,
    store_id: state.storeId,
    name: state.name,
    start_at: state.startAt,
    end_at: state.endAt,
    stopped_at: state.stopped?.at ?? null,
    channel_state: state.channel.state,
    channel_id: state.channel.id,
    channel_error: state.channel.error,
    item_count: itemCount(state),
    created_by: state.createdBy,
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    last_revision: revision.toString(),
    state: JSON.stringify(state),
  } satisfies Insertable<Database['promotions']>;
}

async function applyPromotions(trx: Transaction<Database>, events: RecordedEvent[]): Promise<LiveChange[]> {
  const byPromotion = new Map<string, { tenantId: string; id: string; events: RecordedEvent[] }>();
  for (const event of events) {
    const key = `${event.metadata.tenantId}\u0000${event.stream}`;
    const id = parseStreamId(event.stream)!.entityKey;
    const entry = byPromotion.get(key) ?? { tenantId: event.metadata.tenantId, id, events: [] };
    entry.events.push(event);
    byPromotion.set(key, entry);
  }
  if (byPromotion.size === 0) return [];
  const ids = [...new Set([...byPromotion.values()].map((entry) => entry.id))];
  const stored = await trx
    .selectFrom('promotions')
    .select(['tenant_id', 'id', 'state'])
    .where('id', 'in', ids)
    .execute();
  const states = new Map(
    stored.map((row) => [`${row.tenant_id}\u0000${row.id}`, row.state as unknown as PromotionState]),
  );
  const rows = [];
  const changes: LiveChange[] = [];
  for (const entry of byPromotion.values()) {
    let state = states.get(`${entry.tenantId}\u0000${entry.id}`) ?? initialState;
    for (const event of entry.events)
      state = evolve(state, { type: event.type, data: event.data } as PromotionEvent);
    if (!state.exists) continue;
    rows.push(promotionRow(entry.tenantId, entry.id, state, entry.events.at(-1)!.revision));
    changes.push({ tenantId: entry.tenantId, view: LIVE_VIEWS.promotions, ids: [entry.id] });
  }
  if (rows.length === 0) return [];
  const columns = Object.keys(rows[0]!).filter((name) => name !== 'tenant_id' && name !== 'id');
  await trx
    .insertInto('promotions')
    .values(rows)
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'id'])
        .doUpdateSet(Object.fromEntries(columns.map((name) => [name, sql.ref(`excluded.${name}`)]))),
    )
    .execute();
  return changes;
}

async function applyPriceRule(trx: Transaction<Database>, event: RecordedEvent): Promise<void> {
  const data = event.data as PriceRuleSavedData;
  const row = {
    tenant_id: event.metadata.tenantId,
    store_id: data.storeId,
    markup_percent: data.markupPercent,
    fixed_amount: data.fixedAmount,
    rounding: data.rounding,
    overrides: JSON.stringify(data.overrides),
    updated_by: data.userId,
    updated_at: data.at,
  };
  await trx
    .insertInto('price_rules')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'store_id']).doUpdateSet({
        markup_percent: row.markup_percent,
        fixed_amount: row.fixed_amount,
        rounding: row.rounding,
        overrides: row.overrides,
        updated_by: row.updated_by,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

export const promotionsProjection = defineProjection({
  name: PROMOTIONS_PROJECTION,
  eventTypes: [...PROMOTION_EVENT_TYPES, 'PriceRuleSaved'],
  tables: ['promotions', 'price_rules'],
  async apply(trx, events) {
    const promotions: RecordedEvent[] = [];
    for (const event of events) {
      const category = parseStreamId(event.stream)?.category;
      if (category === PROMOTION_CATEGORY) promotions.push(event);
      else if (category === PRICE_RULE_CATEGORY && event.type === 'PriceRuleSaved')
        await applyPriceRule(trx, event);
    }
    return mergeChanges(await applyPromotions(trx, promotions));
  },
});
