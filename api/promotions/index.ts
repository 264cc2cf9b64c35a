/**
 * Promotions and price control per marketplace (issue 15 item 6; spec §2 "price monitoring, quantity and price
 * control per marketplace, discount promotion, gift-with-purchase promotions", §3 Promo and Gift-with-purchase
 * promotion, §4 Gift promotion, §5 Promotions rules). A promotion is an event-sourced document
 * (domain/promotions/promotion.ts) pushed to its store's channel by a workflow (workflows/promotion-push.workflow.ts);
 * a store's price rule gives its linked SKUs' prices, pushed on request through the channel port and logged.
 * Shapes: api/contracts/promotions.ts; result codes 760–779: domain/promotions/codes.ts.
 *
 * Who (shell.md §6 "Listings: listings-index, listings-manage, marketplace_control"): any listings key sees the
 * promotions; listings-manage creates and stops them; marketplace_control sets and pushes the stores' prices.
 */
import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { GridPage } from '@api/contracts/common';
import { IdParams } from '@api/contracts/ids';
import {
  ChannelSkuQuery,
  ChannelSkuRow,
  DiscountBody,
  GiftBody,
  PricePushAnswer,
  PriceRuleBody,
  PricingAnswer,
  PromotionDetail,
  PromotionListQuery,
  PromotionListRow,
  PromotionStoresAnswer,
  StoreParams,
} from '@api/contracts/promotions';
import { PushLogPage, PushLogQuery } from '@api/contracts/stock-push';
import { ApiError } from '@api/errors';
import { idempotencyKeyOf } from '@api/idempotency';
import { conflicts, router } from '@api/route';
import { createDiscountPromotion, createGiftPromotion } from '@commands/promotions/create';
import { pricing, requestPricePush, savePriceRule } from '@commands/promotions/pricing';
import { stopPromotion } from '@commands/promotions/stop';
import { type PromotionDeps, promotionDetail, storeOrRefuse } from '@commands/promotions/support';
import { PERMISSION_AREAS } from '@domain/access/permissions';
import { PromotionCode } from '@domain/promotions/codes';
import { channelSkusOfStore, promotionPage, promotionStores } from '@projections/promotions.queries';
import { pushLogPage } from '@projections/push-log.queries';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

const BASE = '/api/promotions';
const managing = { permission: 'listings-manage' } as const;
const controlling = { permission: 'marketplace_control' } as const;

export const promotionRoutes: FastifyPluginAsyncZod<PromotionDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, {
    tags: ['promotions'],
    access: { anyOf: [...PERMISSION_AREAS.listings] },
  });

  const keyOf = (request: FastifyRequest) =>
    idempotencyKeyOf(request, undefined, {
      invalid: () => new ApiError(400, PromotionCode.textInvalid, 'promotions.idempotency_key_invalid'),
    });
  const created = (
    request: FastifyRequest,
    reply: FastifyReply,
    result: Awaited<ReturnType<typeof createDiscountPromotion>>,
  ) => {
    if (result.replayed) reply.header('idempotent-replayed', 'true');
    return ok(request, ...result.answer);
  };

  route.get(
    `${BASE}/stores`,
    { summary: 'The stores a promotion or a price rule may be for', answer: PromotionStoresAnswer },
    async (request) => {
      const stores = await promotionStores(db, seller(request).tenantId);
      return ok(
        request,
        stores.map(({ id, name, platform, status }) => ({ id, name, platform, status })),
      );
    },
  );

  route.get(
    `${BASE}/skus`,
    {
      summary:
        "A store's channel SKUs with their price and the stock they may sell (the promotions' pickers)",
      query: ChannelSkuQuery,
      answer: ChannelSkuRow.array(),
    },
    async (request) => {
      const { tenantId } = seller(request);
      const store = await storeOrRefuse(db, tenantId, request.query.store_id);
      return ok(request, await channelSkusOfStore(db, tenantId, store, { search: request.query.search }));
    },
  );

  route.get(
    BASE,
    {
      summary: 'Discount or gift-with-purchase promotions (ag-grid), by status worked out from the clock',
      query: PromotionListQuery,
      answer: GridPage(PromotionListRow),
    },
    async (request) => ok(request, await promotionPage(db, seller(request).tenantId, request.query)),
  );

  route.post(
    `${BASE}/discounts`,
    {
      summary: 'Create a discount promotion (§5 rules) and push it to the store',
      access: managing,
      body: DiscountBody,
      answer: PromotionDetail,
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await createDiscountPromotion(deps, seller(request), { key: keyOf(request), body: request.body }),
      ),
  );

  route.post(
    `${BASE}/gifts`,
    {
      summary: 'Create a gift-with-purchase promotion (§5 rules) and push it where the channel has them',
      access: managing,
      body: GiftBody,
      answer: PromotionDetail,
    },
    async (request, reply) =>
      created(
        request,
        reply,
        await createGiftPromotion(deps, seller(request), { key: keyOf(request), body: request.body }),
      ),
  );

  route.get(
    `${BASE}/:id`,
    {
      summary: 'A promotion: its SKUs or gift terms, its status, where it stands on the channel',
      params: IdParams,
      answer: PromotionDetail,
    },
    async (request) => ok(request, await promotionDetail(deps, seller(request).tenantId, request.params.id)),
  );

  route.post(
    `${BASE}/:id/stop`,
    {
      summary: 'Stop a promotion before its end (and end it on the channel)',
      access: managing,
      params: IdParams,
      answer: PromotionDetail,
      errors: conflicts,
    },
    async (request) =>
      ok(request, ...(await stopPromotion(deps, seller(request), { promotionId: request.params.id }))),
  );

  route.get(
    `${BASE}/pricing/:storeId`,
    {
      summary: "A store's price rule and the price it gives each linked channel SKU (the preview grid)",
      access: controlling,
      params: StoreParams,
      answer: PricingAnswer,
    },
    async (request) => ok(request, await pricing(deps, seller(request), request.params.storeId)),
  );

  route.put(
    `${BASE}/pricing/:storeId`,
    {
      summary: "Save a store's price rule (markup, fixed amount, rounding, per-SKU prices)",
      access: controlling,
      params: StoreParams,
      body: PriceRuleBody,
      answer: PricingAnswer,
    },
    async (request) =>
      ok(
        request,
        ...(await savePriceRule(deps, seller(request), {
          storeId: request.params.storeId,
          body: request.body,
        })),
      ),
  );

  route.post(
    `${BASE}/pricing/:storeId/push`,
    {
      summary:
        "Push the store's prices to its channel (each try and the channel's answer on the store's push log)",
      access: controlling,
      params: StoreParams,
      answer: PricePushAnswer,
      errors: conflicts,
    },
    async (request) =>
      ok(
        request,
        ...(await requestPricePush(deps, seller(request), {
          storeId: request.params.storeId,
          key: keyOf(request),
        })),
      ),
  );

  route.get(
    `${BASE}/pricing/:storeId/log`,
    {
      summary:
        "The store's price pushes from the push log (ag-grid): what price was told for which SKU, when, why, and the answer",
      access: controlling,
      params: StoreParams,
      query: PushLogQuery,
      answer: PushLogPage,
    },
    async (request) => {
      const { tenantId } = seller(request);
      const store = await storeOrRefuse(db, tenantId, request.params.storeId);
      return ok(
        request,
        await pushLogPage(db, tenantId, { ...request.query, store_id: store.id, field: 'price' }),
      );
    },
  );
};
