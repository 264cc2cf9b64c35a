import type { PricePushLine, PricesPushedData } from '@domain/promotions/pricing';
import { pricePushStreamId } from '@domain/promotions/pricing';
import { type PromotionCommand, type PromotionState, skuKey } from '@domain/promotions/promotion';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import {
  ChannelError,
  type ChannelPort,
  channelFor,
  type DiscountDraft,
  type GiftPromotionDraft,
} from '@integrations/channel';
import { findStore } from '@integrations/stores';
import { channelSkusOfStore, priceRuleOf, promotionStore } from '@projections/promotions.queries';
import type { PricePushRequest } from '@workflows/promotion-push-protocol';
import type { Kysely } from 'kysely';
import { eventIdFor } from '../support/ids';
import { pricePreview } from './pricing';
import { promotions } from './support';

/**
 * What the push workflows' activities do (workflows/activities/promotions.ts): tell the store's channel, through the
 * channel port, of a promotion (create it, end it once stopped) or of the store's prices, and record the channel's
 * answer on the promotion's stream or the store's price-push log. Each try is recorded; a try the channel may
 * answer better later (busy, throttled, timed out) throws so the workflow retries it with backoff, until the last
 * try, which is recorded as failed for good. A channel without promotions (`unsupported`) keeps the promotion in
 * Kedai, marked "not on the channel".
 *
 * A promotion is created on its channel once: the channel's id is recorded the moment it answers, and a try that
 * finds it recorded (a retried activity, a restarted worker) creates nothing.
 */

export interface ChannelPushDeps {
  db: Kysely<Database>;
  store: EventStore;
}

/** The channel port of the tenant's store, with the store's own tokens; a store gone is not worth a retry. */
async function channelOf(deps: ChannelPushDeps, tenantId: string, storeId: string): Promise<ChannelPort> {
  const store = await findStore(deps.db, tenantId, storeId);
  if (!store)
    throw new ChannelError('not_found', 'the store is no longer connected to Kedai', { retryable: false });
  return channelFor(deps.db, store);
}

/** Which try of how many this is (Temporal's activity attempt). */
export interface Attempt {
  attempt: number;
  last: boolean;
}

const seconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const modelOf = (modelId: string) => (modelId === '' ? undefined : modelId);
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);
/** Worth trying again: the channel says so, or the failure is not the channel's answer at all (a crash, a bug). */
const retryable = (error: unknown) => (error instanceof ChannelError ? error.retryable : true);

async function recordOn(
  deps: ChannelPushDeps,
  tenantId: string,
  promotionId: string,
  command: PromotionCommand,
  commandId: string,
) {
  const at = new Date().toISOString();
  return promotions.handle(deps.store, promotionId, command, { tenantId, commandId, occurredAt: at });
}

function discountDraft(state: PromotionState): DiscountDraft {
  return {
    name: state.name,
    startTime: seconds(state.startAt),
    endTime: seconds(state.endAt),
    items: (state.discount?.items ?? []).map((item) => ({
      itemId: item.itemId,
      modelId: modelOf(item.modelId),
      promoPrice: item.promoPrice,
      purchaseLimit: item.purchaseLimit === 0 ? undefined : item.purchaseLimit,
      promoStock: item.promoStock ?? undefined,
    })),
  };
}

async function giftDraft(
  deps: ChannelPushDeps,
  tenantId: string,
  state: PromotionState,
): Promise<GiftPromotionDraft> {
  const gift = state.gift!;
  // "All SKUs": every item the store sells is a main item.
  const store = await promotionStore(deps.db, tenantId, state.storeId);
  const main =
    gift.skuSelection === 'all' && store ? await channelSkusOfStore(deps.db, tenantId, store) : gift.mainSkus;
  const mainIds = main.map((sku) => ('item_id' in sku ? sku.item_id : sku.itemId));
  return {
    name: state.name,
    startTime: seconds(state.startAt),
    endTime: seconds(state.endAt),
    purchaseMinSpend: gift.minSpend,
    giftsPerOrder: gift.giftsPerOrder,
    mainItems: [...new Set(mainIds)].map((itemId) => ({ itemId })),
    giftItems: gift.gifts.map((item) => ({ itemId: item.itemId, modelId: modelOf(item.modelId) })),
  };
}

/** Creates the promotion on its channel, unless it is there already, was stopped first, or cannot be. */
export async function pushPromotionToChannel(
  deps: ChannelPushDeps,
  input: { tenantId: string; promotionId: string } & Attempt,
): Promise<PromotionState['channel']['state'] | 'skipped'> {
  const { tenantId, promotionId } = input;
  const { state } = await promotions.load(deps.store, tenantId, promotionId);
  if (!state.exists) return 'skipped';
  if (state.channel.state !== 'pending') return state.channel.state;
  // Stopped before the channel heard of it: there is nothing to create, nor to end.
  if (state.stopped) return 'skipped';
  try {
    const channel = await channelOf(deps, tenantId, state.storeId);
    const channelId =
      state.kind === 'discount'
        ? (await channel.createDiscount(discountDraft(state))).discountId
        : (await channel.createGiftPromotion(await giftDraft(deps, tenantId, state))).promotionId;
    await recordOn(
      deps,
      tenantId,
      promotionId,
      { type: 'RecordPromotionPushed', channelId, at: new Date().toISOString() },
      `promotion-pushed:${promotionId}`,
    );
    return 'pushed';
  } catch (error) {
    if (error instanceof ChannelError && error.kind === 'unsupported') {
      await recordOn(
        deps,
        tenantId,
        promotionId,
        { type: 'RecordPromotionNotOnChannel', error: messageOf(error), at: new Date().toISOString() },
        `promotion-not-on-channel:${promotionId}`,
      );
      return 'not_on_channel';
    }
    const final = input.last || !retryable(error);
    await recordOn(
      deps,
      tenantId,
      promotionId,
      { type: 'RecordPromotionPushFailed', error: messageOf(error), final, at: new Date().toISOString() },
      `promotion-push-failed:${promotionId}:${input.attempt}`,
    );
    if (!final) throw error;
    return 'failed';
  }
}

/** Ends a stopped promotion on its channel (when the channel holds it and it was not ended there already). */
export async function endPromotionOnChannel(
  deps: ChannelPushDeps,
  input: { tenantId: string; promotionId: string } & Attempt,
): Promise<'ended' | 'failed' | 'skipped'> {
  const { tenantId, promotionId } = input;
  const { state } = await promotions.load(deps.store, tenantId, promotionId);
  const channelId = state.channel.id;
  if (!state.channelEnd || state.channelEnd.state === 'done' || !channelId) return 'skipped';
  try {
    const channel = await channelOf(deps, tenantId, state.storeId);
    if (state.kind === 'discount') await channel.endDiscount(channelId);
    else await channel.endGiftPromotion(channelId);
    await recordOn(
      deps,
      tenantId,
      promotionId,
      { type: 'RecordPromotionEnded', at: new Date().toISOString() },
      `promotion-ended:${promotionId}`,
    );
    return 'ended';
  } catch (error) {
    const final = input.last || !retryable(error);
    if (final)
      await recordOn(
        deps,
        tenantId,
        promotionId,
        { type: 'RecordPromotionEndFailed', error: messageOf(error), at: new Date().toISOString() },
        `promotion-end-failed:${promotionId}`,
      );
    if (!final) throw error;
    return 'failed';
  }
}

/** The prices the channel took, as the SKUs' prices the channel shows now. */
async function recordChannelPrices(
  db: Kysely<Database>,
  tenantId: string,
  storeId: string,
  lines: PricePushLine[],
) {
  for (const line of lines)
    await db
      .updateTable('channel_skus')
      .set({ price: line.price, updated_at: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('store_id', '=', storeId)
      .where('item_id', '=', line.itemId)
      .where('model_id', '=', line.modelId)
      .execute();
}

/** The SKUs (`itemId:modelId`) an earlier try of this push already set, with the price they took. */
async function acceptedBefore(deps: ChannelPushDeps, tenantId: string, storeId: string, pushId: string) {
  const accepted = new Map<string, string>();
  for await (const event of deps.store.readStream(pricePushStreamId(tenantId, storeId))) {
    const data = event.data as PricesPushedData;
    if (event.type !== 'PricesPushed' || data.pushId !== pushId) continue;
    for (const line of data.lines) if (line.ok) accepted.set(skuKey(line), line.price);
  }
  return accepted;
}

/**
 * Pushes the store's prices as its rule gives them now, through the port's `updatePrice`, and records the try on
 * the store's price-push log with the channel's answer for each SKU. A retry sends only what the channel has not
 * taken yet (a busy answer for one item leaves the others set). What the channel took becomes the SKU's price in
 * `channel_skus`, the price a discount is worked out from.
 */
export async function pushStorePrices(
  deps: ChannelPushDeps,
  input: { tenantId: string; storeId: string; request: PricePushRequest } & Attempt,
): Promise<{ ok: number; refused: number; failed: boolean }> {
  const { tenantId, storeId, request } = input;
  const store = await promotionStore(deps.db, tenantId, storeId);
  if (!store) return { ok: 0, refused: 0, failed: true };
  const { rule } = await priceRuleOf(deps.db, tenantId, storeId);
  const accepted = await acceptedBefore(deps, tenantId, storeId, request.pushId);
  const lines: PricePushLine[] = (await pricePreview(deps.db, tenantId, store, rule))
    .filter((row) => row.new_price !== null && row.master_code !== null)
    .map((row) => ({
      itemId: row.item_id,
      modelId: row.model_id,
      sellerSku: row.seller_sku,
      masterCodeId: row.master_code!.id,
      price: row.new_price!,
      ok: false,
      retryable: false,
      reason: null,
    }))
    .filter((line) => accepted.get(skuKey(line)) !== line.price);
  if (lines.length === 0) return { ok: 0, refused: 0, failed: false };
  const record = (data: Pick<PricesPushedData, 'lines' | 'error'>) => {
    const at = new Date().toISOString();
    const commandId = `price-pushed:${request.pushId}:${input.attempt}`;
    const event: PricesPushedData = {
      storeId,
      pushId: request.pushId,
      attempt: input.attempt,
      userId: request.userId,
      at,
      ...data,
    };
    return deps.store.append(
      pricePushStreamId(tenantId, storeId),
      [
        {
          id: eventIdFor(commandId),
          type: 'PricesPushed',
          data: event,
          metadata: { tenantId, userId: request.userId ?? undefined, commandId, occurredAt: at },
        },
      ],
      { expectedRevision: 'any' },
    );
  };
  let outcomes: Awaited<ReturnType<ChannelPort['updatePrice']>>;
  try {
    const channel = await channelOf(deps, tenantId, storeId);
    outcomes = await channel.updatePrice(
      lines.map((line) => ({ itemId: line.itemId, modelId: modelOf(line.modelId), price: line.price })),
    );
  } catch (error) {
    const again = !input.last && retryable(error);
    const kind = error instanceof ChannelError ? error.kind : 'error';
    await record({ lines, error: { kind, message: messageOf(error), retryable: again } });
    if (again) throw error;
    return { ok: 0, refused: 0, failed: true };
  }
  const answered = lines.map((line, index): PricePushLine => {
    const outcome = outcomes[index];
    if (outcome?.ok) return { ...line, ok: true };
    return {
      ...line,
      retryable: !input.last && (outcome === undefined || outcome.retryable),
      reason: outcome && !outcome.ok ? outcome.reason.slice(0, 1000) : 'no answer from the channel',
    };
  });
  await record({ lines: answered, error: null });
  const taken = answered.filter((line) => line.ok);
  await recordChannelPrices(deps.db, tenantId, storeId, taken);
  const again = answered.filter((line) => line.retryable).length;
  // The channel may take these later (busy, throttled): Temporal tries again, with backoff, for them alone.
  if (again > 0) throw new Error(`${again} SKUs to push again`);
  return { ok: taken.length, refused: answered.length - taken.length, failed: false };
}
