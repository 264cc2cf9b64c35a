import { loggedPush, recordPush } from '@commands/channels/push-log';
import type { PushedLine } from '@domain/channels/push-log';
import { type PromotionCommand, type PromotionState, skuKey } from '@domain/promotions/promotion';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import {
  ChannelError,
  type ChannelOf,
  channelOfStore,
  type DiscountDraft,
  type GiftPromotionDraft,
} from '@integrations/channel';
import { findStore, type Store } from '@integrations/stores';
import { channelSkusOfStore, priceRuleOf, promotionStore } from '@projections/promotions.queries';
import { type PricePushRequest, PUSH_MAX_ATTEMPTS } from '@workflows/promotion-push-protocol';
import type { Kysely } from 'kysely';
import { pricePreview } from './pricing';
import { promotions } from './support';

/**
 * What the push workflows' activities do (workflows/activities/promotions.ts): tell the store's channel, through the
 * channel port, of a promotion (create it, end it once stopped) or of the store's prices, and record the channel's
 * answer on the promotion's stream or, for prices, on the store's push log beside its stock pushes. Each try is
 * recorded; a try the channel may answer better later (busy, throttled, timed out) throws so the workflow retries it
 * with backoff, until the last try, which is recorded as failed for good. A channel without promotions
 * (`unsupported`) keeps the promotion in Kedai, marked "not on the channel".
 *
 * A promotion is created on its channel once: the channel's id is recorded the moment it answers, and a try that
 * finds it recorded (a retried activity, a restarted worker) creates nothing.
 */

export interface ChannelPushDeps {
  db: Kysely<Database>;
  store: EventStore;
  channelOf: ChannelOf;
}

const channelOf = (deps: ChannelPushDeps, tenantId: string, storeId: string) =>
  channelOfStore(deps.db, deps.channelOf, tenantId, storeId);

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
  lines: PushedLine[],
) {
  for (const line of lines)
    await db
      .updateTable('channel_skus')
      .set({ price: line.price!, updated_at: new Date() })
      .where('tenant_id', '=', tenantId)
      .where('store_id', '=', storeId)
      .where('item_id', '=', line.itemId)
      .where('model_id', '=', line.modelId)
      .execute();
}

/** SKUs per call (one push log event holds one call's lines). */
const PRICES_PER_CALL = 200;
const priceCallId = (pushId: string, attempt: number, call: number) =>
  `price-push:${pushId}:${attempt}:${call}`;

/** The SKUs (`itemId:modelId`) an earlier try of this push already set, with the price they took. */
async function acceptedBefore(deps: ChannelPushDeps, store: Store, pushId: string, attempt: number) {
  const accepted = new Map<string, string>();
  for (let earlier = 1; earlier < attempt; earlier++)
    for (let call = 0; ; call++) {
      // A try's calls are made in order: the first one missing ends that try.
      const lines = await loggedPush(deps, store, priceCallId(pushId, earlier, call));
      if (!lines) break;
      for (const line of lines)
        if (line.outcome === 'ok' && line.price) accepted.set(skuKey(line), line.price);
    }
  return accepted;
}

/**
 * Pushes the store's prices as its rule gives them now, through the port's `updatePrice`, each call recorded on the
 * store's push log (`field: 'price'`, why: the price rule and the push asked for) with the channel's answer for
 * each SKU. A retry sends only what the channel has not taken yet (a busy answer for one item leaves the others
 * set). What the channel took becomes the SKU's price in `channel_skus`, the price a discount is worked out from.
 */
export async function pushStorePrices(
  deps: ChannelPushDeps,
  input: { tenantId: string; storeId: string; request: PricePushRequest } & Attempt,
): Promise<{ ok: number; refused: number }> {
  const { tenantId, storeId, request } = input;
  const priced = await promotionStore(deps.db, tenantId, storeId);
  const store = await findStore(deps.db, tenantId, storeId);
  if (!priced || !store) return { ok: 0, refused: 0 };
  const { rule } = await priceRuleOf(deps.db, tenantId, storeId);
  const accepted = await acceptedBefore(deps, store, request.pushId, input.attempt);
  const lines = (await pricePreview(deps.db, tenantId, priced, rule))
    .filter((row) => row.new_price !== null && row.master_code !== null)
    .map((row) => ({
      itemId: row.item_id,
      modelId: row.model_id,
      sellerSku: row.seller_sku,
      masterCodeId: row.master_code!.id,
      price: row.new_price!,
      trigger: { origin: 'pricing' as const, eventId: request.pushId, reason: '' },
      attempt: input.attempt,
    }))
    .filter((line) => accepted.get(skuKey(line)) !== line.price);
  const answered: PushedLine[] = [];
  for (let start = 0, call = 0; start < lines.length; start += PRICES_PER_CALL, call++) {
    const batch = lines.slice(start, start + PRICES_PER_CALL);
    const logged = await recordPush(deps, {
      store,
      callId: priceCallId(request.pushId, input.attempt, call),
      field: 'price',
      userId: request.userId,
      lines: batch,
      maxAttempts: PUSH_MAX_ATTEMPTS,
      call: async () =>
        (await deps.channelOf(store)).updatePrice(
          batch.map((line) => ({ itemId: line.itemId, modelId: modelOf(line.modelId), price: line.price })),
        ),
    });
    answered.push(...logged.lines);
  }
  const taken = answered.filter((line) => line.outcome === 'ok');
  await recordChannelPrices(deps.db, tenantId, storeId, taken);
  const again = answered.filter((line) => line.outcome === 'retrying').length;
  // The channel may take these later (busy, throttled): Temporal tries again, with backoff, for them alone.
  if (again > 0) throw new Error(`${again} SKUs to push again`);
  return { ok: taken.length, refused: answered.length - taken.length };
}
