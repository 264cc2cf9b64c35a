import { randomUUID } from 'node:crypto';
import type {
  PricePreviewRow,
  PricePushAnswer,
  PriceRuleBody,
  PricingAnswer,
} from '@api/contracts/promotions';
import {
  channelPrice,
  checkPriceRule,
  type PriceRule,
  priceRuleStreamId,
  refusePriceRule,
} from '@domain/promotions/pricing';
import { skuKey } from '@domain/promotions/promotion';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { channelSkusOfStore, type PromotionStore, priceRuleOf } from '@projections/promotions.queries';
import {
  PRICE_PUSH_SIGNAL,
  PRICE_PUSH_WORKFLOW,
  type PricePushInput,
  type PricePushRequest,
  pricePushWorkflowId,
} from '@workflows/promotion-push-protocol';
import { type WorkflowDeps, workflowsUnavailable } from '@workflows/updates';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';
import { eventIdFor } from '../support/ids';
import { storeOrRefuse } from './support';

/**
 * Price control per marketplace: the store's rule (saved as an event on its stream, read back from `price_rules`),
 * the preview of what it gives each linked channel SKU, and "push prices", which hands the store's price push
 * workflow a request (signal-with-start: one workflow per store, a request while it runs waits its turn and is
 * pushed with the prices of that moment).
 */

export interface PricingDeps {
  db: Kysely<Database>;
  store: EventStore;
  workflows: WorkflowDeps;
}

/** The prices the rule gives the store's linked SKUs now (an unlinked SKU: null, nothing to price it from). */
export async function pricePreview(
  db: Kysely<Database>,
  tenantId: string,
  store: PromotionStore,
  rule: PriceRule,
): Promise<PricePreviewRow[]> {
  const skus = await channelSkusOfStore(db, tenantId, store);
  return skus.map((sku) => {
    const key = skuKey({ itemId: sku.item_id, modelId: sku.model_id });
    return {
      ...sku,
      new_price: sku.master_code ? channelPrice(sku.master_code.unit_price, rule, key) : null,
      overridden: key in rule.overrides,
    };
  });
}

const ruleAnswer = (rule: PriceRule) => ({
  markup_percent: rule.markupPercent,
  fixed_amount: rule.fixedAmount,
  rounding: rule.rounding,
  overrides: rule.overrides,
});

export async function pricing(
  deps: Pick<PricingDeps, 'db'>,
  actor: Actor,
  storeId: string,
): Promise<PricingAnswer> {
  const store = await storeOrRefuse(deps.db, actor.tenantId, storeId);
  const { rule, updatedAt } = await priceRuleOf(deps.db, actor.tenantId, store.id);
  return {
    store: { id: store.id, name: store.name, platform: store.platform },
    rule: ruleAnswer(rule),
    updated_at: updatedAt,
    rows: await pricePreview(deps.db, actor.tenantId, store, rule),
  };
}

const ruleOf = (body: PriceRuleBody): PriceRule => ({
  markupPercent: body.markup_percent,
  fixedAmount: body.fixed_amount,
  rounding: body.rounding,
  overrides: body.overrides,
});

/** The store's new rule, recorded; answered with the preview it gives (the read model may lag a moment). */
export async function savePriceRule(
  deps: PricingDeps,
  actor: Actor,
  input: { storeId: string; body: PriceRuleBody },
): Promise<Answered<PricingAnswer>> {
  const store = await storeOrRefuse(deps.db, actor.tenantId, input.storeId);
  const rule = ruleOf(input.body);
  checkPriceRule(rule);
  const at = new Date().toISOString();
  await deps.store.append(
    priceRuleStreamId(actor.tenantId, store.id),
    [
      {
        id: randomUUID(),
        type: 'PriceRuleSaved',
        data: { storeId: store.id, ...rule, userId: actor.userId, at },
        metadata: {
          tenantId: actor.tenantId,
          userId: actor.userId,
          commandId: `price-rule:${store.id}:${at}`,
          occurredAt: at,
        },
      },
    ],
    { expectedRevision: 'any' },
  );
  return [
    {
      store: { id: store.id, name: store.name, platform: store.platform },
      rule: ruleAnswer(rule),
      updated_at: at,
      rows: await pricePreview(deps.db, actor.tenantId, store, rule),
    },
    'promotions.price_rule_saved',
  ];
}

/** Hands the store's price push workflow a request; one with the same idempotency key is the same push. */
export async function requestPricePush(
  deps: PricingDeps,
  actor: Actor,
  input: { storeId: string; key: string | undefined },
): Promise<Answered<PricePushAnswer>> {
  const store = await storeOrRefuse(deps.db, actor.tenantId, input.storeId);
  const { rule } = await priceRuleOf(deps.db, actor.tenantId, store.id);
  const priced = (await pricePreview(deps.db, actor.tenantId, store, rule)).filter((row) => row.new_price);
  if (priced.length === 0) throw refusePriceRule('PRICE_NOTHING_TO_PUSH');
  const pushId = input.key
    ? eventIdFor(`price-push:${actor.tenantId}:${store.id}:${input.key}`)
    : randomUUID();
  const workflowInput: PricePushInput = { tenantId: actor.tenantId, storeId: store.id };
  const request: PricePushRequest = { pushId, userId: actor.userId };
  try {
    await deps.workflows.client.workflow.signalWithStart(PRICE_PUSH_WORKFLOW, {
      workflowId: pricePushWorkflowId(workflowInput),
      taskQueue: deps.workflows.taskQueue,
      args: [workflowInput],
      signal: PRICE_PUSH_SIGNAL,
      signalArgs: [request],
    });
  } catch {
    throw workflowsUnavailable();
  }
  return [{ push_id: pushId, skus: priced.length }, 'promotions.prices_pushing'];
}
