import type { MarketplaceOrder } from '@domain/orders/marketplace-order';
import { inTurns } from '@infra/concurrency';
import {
  type ChannelAttribute,
  type ChannelAttributeInput,
  type ChannelBrands,
  type ChannelCategory,
  ChannelError,
  type ChannelItem,
  type ChannelItemDraft,
  type ChannelItemStatus,
  type ChannelModel,
  type ChannelOrders,
  type ChannelPage,
  type ChannelPort,
  type ChannelStock,
  type CreatedItem,
  type DiscountDraft,
  type GiftPromotionDraft,
  type PriceUpdate,
  type StockUpdate,
  type UpdateOutcome,
} from '@integrations/channel/port';
import { classifyStoreError } from '@integrations/stores/shopee';
import {
  OrderTranslationError,
  SHOPEE_TRACKED_STATUSES,
  shopeeToMarketplaceOrder,
} from '@integrations/stores/shopee-orders';
import type { ShopeeClient } from './client';
import { ShopeeAuthError, ShopeeError, ShopeeRequestError } from './errors';
import {
  ADD_ON_DEAL_TYPES,
  type AddItemRequest,
  ATTRIBUTE_INPUT_TYPES,
  type InitTierVariationRequest,
  SHOPEE_LIMITS,
  type ShopeeItemBaseInfo,
  type ShopeeItemStatus,
  type ShopeeModel,
  type ShopeeOrder,
} from './schemas';

/**
 * The Shopee adapter of the channel port (integrations/channel/port.ts): one store's shop through its client
 * (the store's tokens, refreshed by the client). Shopee's calls take one item and at most 50 models each
 * (update_stock, update_price), 50 items (get_item_base_info), 100 per page (get_item_list), so the adapter groups
 * and splits; per-model answers come from Shopee's success_list / failure_list. Every failure is a ChannelError,
 * its kind as the order import reads Shopee's errors (classifyStoreError), `not_found` for an unknown item.
 */

/** The statuses listItems reads: every one but the deleted. */
const LISTED_STATUSES: ShopeeItemStatus[] = ['NORMAL', 'UNLIST', 'BANNED', 'REVIEWING'];

const STATUS_OF: Record<ShopeeItemStatus, ChannelItemStatus> = {
  NORMAL: 'normal',
  UNLIST: 'unlisted',
  BANNED: 'banned',
  REVIEWING: 'reviewing',
  SELLER_DELETE: 'deleted',
  SHOPEE_DELETE: 'deleted',
};

const NOT_FOUND_CODES: ReadonlySet<string> = new Set([
  'error_item_not_found',
  'error_not_found',
  'common.error_not_found',
  'add_on.add_on_deal_not_exists',
  'error_invalid_category',
]);

/** The statuses an item a seller still has may be in: what a create adopts rather than duplicates. */
const LIVE_STATUSES: ShopeeItemStatus[] = ['NORMAL', 'UNLIST', 'REVIEWING', 'BANNED'];

const INPUT_OF: Record<number, ChannelAttributeInput> = {
  [ATTRIBUTE_INPUT_TYPES.singleDropDown]: 'select',
  [ATTRIBUTE_INPUT_TYPES.singleComboBox]: 'combo',
  [ATTRIBUTE_INPUT_TYPES.freeText]: 'text',
  [ATTRIBUTE_INPUT_TYPES.multiDropDown]: 'multi_select',
  [ATTRIBUTE_INPUT_TYPES.multiComboBox]: 'multi_combo',
};

/** A category id as Shopee takes it; anything else names no category of the store's. */
function categoryNumber(categoryId: string): number {
  const id = Number(categoryId);
  if (!/^\d{1,12}$/.test(categoryId) || id <= 0)
    throw new ChannelError('not_found', `no category ${categoryId.slice(0, 40)}`, { retryable: false });
  return id;
}

/** Money for Shopee (a number: MYR has two decimals) and back ("12.90"). */
/** update_stock / update_price calls in flight at once for one store (well inside Shopee's per-shop limit). */
const UPDATE_CALLS_AT_ONCE = 4;

const amount = (money: string) => Number(money);
const money = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

/** A Shopee failure (or any other) as the port's ChannelError. */
export function channelErrorOf(error: unknown): ChannelError {
  if (error instanceof ChannelError) return error;
  const classified = classifyStoreError(error);
  const code = error instanceof ShopeeError ? error.code : undefined;
  const kind =
    code && NOT_FOUND_CODES.has(code)
      ? 'not_found'
      : classified.kind === 'order'
        ? 'protocol'
        : classified.kind === 'internal'
          ? 'server'
          : classified.kind;
  return new ChannelError(kind, classified.message, {
    ...(code ? { channelCode: code } : {}),
    retryable: classified.retryable,
    ...(classified.retryAfterMs !== undefined ? { retryAfterMs: classified.retryAfterMs } : {}),
    ...(error instanceof ShopeeAuthError && error.reauthorize ? { reauthorize: true } : {}),
    cause: error,
  });
}

/** Runs a call, every failure as a ChannelError. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw channelErrorOf(error);
  }
}

const chunks = <T>(list: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, index) =>
    list.slice(index * size, (index + 1) * size),
  );

/** Downloads an image the draft names (https, or a data: URL in tests) for upload_image. */
async function imageBytes(url: string): Promise<{ bytes: Uint8Array; contentType: string }> {
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new ChannelError('network', `the image ${url.slice(0, 200)} could not be read`, {
      retryable: true,
      cause: error,
    });
  }
  const contentType = response.headers.get('content-type') ?? '';
  if (!response.ok || !contentType.startsWith('image/'))
    throw new ChannelError('request', `the image ${url.slice(0, 200)} is not an image (${response.status})`, {
      retryable: false,
    });
  return { bytes: new Uint8Array(await response.arrayBuffer()), contentType };
}

export class ShopeeChannel implements ChannelPort {
  readonly platform = 'shopee';
  readonly maxModelsPerCall = SHOPEE_LIMITS.modelBatch;
  readonly maxVariantCombinations = SHOPEE_LIMITS.modelBatch;

  constructor(
    private readonly client: ShopeeClient,
    private readonly shopId: number,
  ) {}

  async refresh(): Promise<void> {
    // Any shop call refreshes tokens about to expire first; the cheapest is the shop's own info.
    await guarded(() => this.client.getShopInfo(this.shopId));
  }

  // ---- items ----

  async listItems(page?: string): Promise<ChannelPage<{ itemId: string; updatedAt: number }>> {
    const offset = page === undefined ? 0 : Number(page);
    if (!Number.isInteger(offset) || offset < 0)
      throw new ChannelError('request', `not a page of Shopee items: ${page}`, { retryable: false });
    const answer = await guarded(() =>
      this.client.getItemList(this.shopId, {
        offset,
        page_size: SHOPEE_LIMITS.itemListPageSize,
        item_status: LISTED_STATUSES,
      }),
    );
    return {
      items: answer.item.map((item) => ({ itemId: String(item.item_id), updatedAt: item.update_time })),
      ...(answer.has_next_page ? { next: String(answer.next_offset) } : {}),
    };
  }

  async getItems(itemIds: string[]): Promise<ChannelItem[]> {
    const items: ChannelItem[] = [];
    for (const batch of chunks(itemIds.map(Number), SHOPEE_LIMITS.itemBatch)) {
      const infos = await guarded(() => this.client.getItemBaseInfo(this.shopId, { item_id_list: batch }));
      for (const info of infos) {
        // A deleted item's models are no longer to be had: it is read back with its status only.
        const models =
          info.has_model && STATUS_OF[info.item_status] !== 'deleted'
            ? await guarded(() => this.client.getModelList(this.shopId, info.item_id))
            : undefined;
        items.push(this.itemOf(info, models));
      }
    }
    return items;
  }

  async createItem(draft: ChannelItemDraft): Promise<CreatedItem> {
    // add_item may have answered a call whose caller never heard it (a crash, a lost answer): the item it made is
    // found by its seller SKU and made the draft, so a retry leaves one item, not two.
    const existing = await this.findItemBySellerSku(draft.sellerSku);
    if (existing) return { ...(await this.updateItem(existing, draft)), adopted: true };
    const base = await this.itemFields(draft);
    const itemId = await guarded(() =>
      this.client.addItem(this.shopId, {
        ...base,
        // With models, the item's own price and stock are placeholders init_tier_variation replaces.
        original_price: amount(
          draft.tiers.length > 0 ? (draft.models[0]?.price ?? draft.price) : draft.price,
        ),
        seller_stock: [{ stock: draft.tiers.length > 0 ? 0 : draft.stock }],
      }),
    );
    if (draft.tiers.length === 0) return { itemId: String(itemId), models: [{ sellerSku: draft.sellerSku }] };
    try {
      return await this.initTiers(itemId, draft);
    } catch (error) {
      // Half an item (no models) must not stay on the shop: removed, then the failure is the caller's.
      await this.client.deleteItem(this.shopId, itemId).catch(() => undefined);
      throw error;
    }
  }

  async updateItem(itemId: string, draft: ChannelItemDraft): Promise<CreatedItem> {
    const id = Number(itemId);
    const base = await this.itemFields(draft);
    await guarded(() => this.client.updateItem(this.shopId, { item_id: id, ...base }));
    const current = await guarded(() => this.client.getModelList(this.shopId, id));
    const sameTiers =
      JSON.stringify(
        current.tier_variation.map((tier) => [tier.name, tier.option_list.map((o) => o.option)]),
      ) === JSON.stringify(draft.tiers.map((tier) => [tier.name, tier.options])) &&
      draft.models.every((model) =>
        current.model.some(
          (existing) =>
            existing.model_sku === model.sellerSku && existing.tier_index.join() === model.tierIndex.join(),
        ),
      ) &&
      current.model.length === draft.models.length;
    if (draft.tiers.length === 0 && current.model.length === 0) {
      await this.applyAll(
        this.updatePrice([{ itemId, price: draft.price }]),
        this.updateStock([{ itemId, quantity: draft.stock }]),
      );
      return { itemId, models: [{ sellerSku: draft.sellerSku }] };
    }
    if (!sameTiers) {
      if (draft.tiers.length === 0)
        throw new ChannelError('unsupported', 'removing the variations of a Shopee item is not supported', {
          retryable: false,
        });
      return this.initTiers(id, draft);
    }
    // The same tiers and SKUs: only prices and stock change, the model ids (and links to them) stay.
    const byKey = new Map(current.model.map((model) => [model.model_sku, String(model.model_id)]));
    const models = draft.models.map((model) => ({ ...model, modelId: byKey.get(model.sellerSku) }));
    await this.applyAll(
      this.updatePrice(models.map((model) => ({ itemId, modelId: model.modelId, price: model.price }))),
      this.updateStock(models.map((model) => ({ itemId, modelId: model.modelId, quantity: model.stock }))),
    );
    return {
      itemId,
      models: models.map((model) => ({ sellerSku: model.sellerSku, modelId: model.modelId })),
    };
  }

  async findItemBySellerSku(sellerSku: string): Promise<string | undefined> {
    const wanted = sellerSku.trim().toLowerCase();
    if (!wanted) return undefined;
    let offset: string | undefined;
    do {
      const page = await guarded(() =>
        this.client.searchItem(this.shopId, {
          page_size: SHOPEE_LIMITS.searchItemPageSize,
          item_sku: sellerSku.trim(),
          item_status: LIVE_STATUSES,
          ...(offset ? { offset } : {}),
        }),
      );
      // search_item matches SKUs containing the keyword: the item's own SKU is compared whole.
      for (const batch of chunks(page.item_id_list, SHOPEE_LIMITS.itemBatch)) {
        const infos = await guarded(() => this.client.getItemBaseInfo(this.shopId, { item_id_list: batch }));
        const match = infos.find(
          (info) =>
            (info.item_sku ?? '').trim().toLowerCase() === wanted && LIVE_STATUSES.includes(info.item_status),
        );
        if (match) return String(match.item_id);
      }
      offset = page.item_id_list.length > 0 ? page.next_offset || undefined : undefined;
    } while (offset);
    return undefined;
  }

  async setListed(itemId: string, listed: boolean): Promise<void> {
    const answer = await guarded(() =>
      this.client.unlistItem(this.shopId, { item_list: [{ item_id: Number(itemId), unlist: !listed }] }),
    );
    const failed = answer.failure_list[0];
    if (failed)
      throw new ChannelError(
        /not found/i.test(failed.failed_reason) ? 'not_found' : 'request',
        failed.failed_reason,
        {
          retryable: false,
        },
      );
  }

  async deleteItem(itemId: string): Promise<void> {
    await guarded(() => this.client.deleteItem(this.shopId, Number(itemId)));
  }

  // ---- categories ----

  async getCategories(): Promise<ChannelCategory[]> {
    const categories = await guarded(() => this.client.getCategories(this.shopId));
    return categories.map((category) => ({
      categoryId: String(category.category_id),
      parentId: category.parent_category_id === 0 ? null : String(category.parent_category_id),
      name: category.display_category_name || category.original_category_name,
      leaf: !category.has_children,
    }));
  }

  async getAttributes(categoryId: string): Promise<ChannelAttribute[]> {
    const id = categoryNumber(categoryId);
    const answer = await guarded(() => this.client.getAttributeTree(this.shopId, { category_id_list: [id] }));
    // A value's child attributes are asked only once that value is chosen, and never mandatory by themselves:
    // the first level is what an item must carry.
    return (answer.list.find((entry) => entry.category_id === id)?.attribute_tree ?? []).map((attribute) => ({
      attributeId: String(attribute.attribute_id),
      name: attribute.name,
      mandatory: attribute.mandatory,
      input: INPUT_OF[attribute.attribute_info.input_type] ?? 'text',
      values: attribute.attribute_value_list.map((value) => ({
        valueId: String(value.value_id),
        name: value.name,
      })),
      units: attribute.attribute_info.attribute_unit_list,
      ...(attribute.attribute_info.max_value_count
        ? { maxValues: attribute.attribute_info.max_value_count }
        : {}),
    }));
  }

  async getBrands(categoryId: string): Promise<ChannelBrands> {
    const id = categoryNumber(categoryId);
    const brands: ChannelBrands['brands'] = [];
    let offset = 0;
    let mandatory = false;
    for (;;) {
      const page = await guarded(() =>
        this.client.getBrandList(this.shopId, {
          offset,
          page_size: SHOPEE_LIMITS.brandListPageSize,
          category_id: id,
          status: 1,
        }),
      );
      mandatory = page.is_mandatory;
      brands.push(
        ...page.brand_list.map((brand) => ({
          brandId: String(brand.brand_id),
          name: brand.display_brand_name || brand.original_brand_name,
        })),
      );
      if (!page.has_next_page || page.brand_list.length === 0) return { mandatory, brands };
      offset = page.next_offset;
    }
  }

  // ---- stock and price ----

  async updateStock(updates: StockUpdate[]): Promise<UpdateOutcome[]> {
    return this.perModel(updates, async (itemId, batch) => {
      const answer = await this.client.updateStock(this.shopId, {
        item_id: itemId,
        stock_list: batch.map((update) => ({
          model_id: Number(update.modelId ?? 0),
          seller_stock: [{ stock: update.quantity }],
        })),
      });
      return answer;
    });
  }

  async updatePrice(updates: PriceUpdate[]): Promise<UpdateOutcome[]> {
    return this.perModel(updates, async (itemId, batch) =>
      this.client.updatePrice(this.shopId, {
        item_id: itemId,
        price_list: batch.map((update) => ({
          model_id: Number(update.modelId ?? 0),
          original_price: amount(update.price),
        })),
      }),
    );
  }

  async getStock(itemIds: string[]): Promise<ChannelStock[]> {
    const items = await this.getItems(itemIds);
    return items.flatMap((item) =>
      item.models.length === 0
        ? [{ itemId: item.itemId, sellerSku: item.sellerSku, quantity: item.stock }]
        : item.models.map((model) => ({
            itemId: item.itemId,
            ...(model.modelId ? { modelId: model.modelId } : {}),
            sellerSku: model.sellerSku,
            quantity: model.stock,
          })),
    );
  }

  // ---- promotions ----

  async createDiscount(draft: DiscountDraft): Promise<{ discountId: string }> {
    const discountId = await guarded(() =>
      this.client.addDiscount(this.shopId, {
        discount_name: draft.name,
        start_time: draft.startTime,
        end_time: draft.endTime,
      }),
    );
    const byItem = new Map<string, DiscountDraft['items']>();
    for (const item of draft.items) byItem.set(item.itemId, [...(byItem.get(item.itemId) ?? []), item]);
    try {
      for (const batch of chunks([...byItem.values()], SHOPEE_LIMITS.discountItemBatch)) {
        const answer = await guarded(() =>
          this.client.addDiscountItem(this.shopId, {
            discount_id: discountId,
            item_list: batch.map((models) => {
              const first = models[0]!;
              return first.modelId === undefined
                ? {
                    item_id: Number(first.itemId),
                    purchase_limit: first.purchaseLimit ?? 0,
                    item_promotion_price: amount(first.promoPrice),
                    ...(first.promoStock !== undefined ? { item_promotion_stock: first.promoStock } : {}),
                  }
                : {
                    item_id: Number(first.itemId),
                    purchase_limit: first.purchaseLimit ?? 0,
                    model_list: models.map((model) => ({
                      model_id: Number(model.modelId),
                      model_promotion_price: amount(model.promoPrice),
                      ...(model.promoStock !== undefined ? { model_promotion_stock: model.promoStock } : {}),
                    })),
                  };
            }),
          }),
        );
        const refused = answer.error_list[0];
        if (refused)
          throw new ChannelError('request', `item ${refused.item_id}: ${refused.fail_message}`, {
            channelCode: refused.fail_error,
            retryable: false,
          });
      }
    } catch (error) {
      // A discount without all its items is not the one asked for: the upcoming discount is deleted.
      await this.client.closeDiscount(this.shopId, discountId, 'delete').catch(() => undefined);
      throw error;
    }
    return { discountId: String(discountId) };
  }

  async endDiscount(discountId: string): Promise<void> {
    try {
      await guarded(() => this.client.closeDiscount(this.shopId, Number(discountId), 'end'));
    } catch (error) {
      // Shopee ends only an ongoing discount; one that has not started is deleted instead.
      if (!(error instanceof ChannelError) || error.options.channelCode !== 'discount.discount_is_ongoing')
        throw error;
      await guarded(() => this.client.closeDiscount(this.shopId, Number(discountId), 'delete'));
    }
  }

  async createGiftPromotion(draft: GiftPromotionDraft): Promise<{ promotionId: string }> {
    const dealId = await guarded(() =>
      this.client.addAddOnDeal(this.shopId, {
        add_on_deal_name: draft.name,
        start_time: draft.startTime,
        end_time: draft.endTime,
        promotion_type: ADD_ON_DEAL_TYPES.giftWithMinSpend,
        purchase_min_spend: amount(draft.purchaseMinSpend),
        per_gift_num: draft.giftsPerOrder,
      }),
    );
    try {
      const main = await guarded(() =>
        this.client.addAddOnDealMainItems(this.shopId, {
          add_on_deal_id: dealId,
          main_item_list: draft.mainItems.map((item) => ({ item_id: Number(item.itemId), status: 1 })),
        }),
      );
      const gifts = await guarded(() =>
        this.client.addAddOnDealSubItems(this.shopId, {
          add_on_deal_id: dealId,
          sub_item_list: draft.giftItems.map((item) => ({
            item_id: Number(item.itemId),
            ...(item.modelId !== undefined ? { model_id: Number(item.modelId) } : {}),
            status: 1,
          })),
        }),
      );
      const refused = [...main.main_item_list, ...gifts.sub_item_list].find((item) => item.fail_error);
      if (refused)
        throw new ChannelError(
          'request',
          `item ${refused.item_id}: ${refused.fail_message ?? refused.fail_error}`,
          {
            channelCode: refused.fail_error,
            retryable: false,
          },
        );
    } catch (error) {
      // A deal without all its items is not the one asked for: the upcoming deal is deleted.
      await this.client.closeAddOnDeal(this.shopId, dealId, 'delete').catch(() => undefined);
      throw error;
    }
    return { promotionId: String(dealId) };
  }

  async endGiftPromotion(promotionId: string): Promise<void> {
    try {
      await guarded(() => this.client.closeAddOnDeal(this.shopId, Number(promotionId), 'end'));
    } catch (error) {
      // Shopee ends only an ongoing deal; one that has not started is deleted instead.
      if (!(error instanceof ChannelError) || error.options.channelCode !== 'add_on.add_on_end_error')
        throw error;
      await guarded(() => this.client.closeAddOnDeal(this.shopId, Number(promotionId), 'delete'));
    }
  }

  // ---- orders ----

  async listOrders(
    window: { from: number; until: number },
    page?: string,
  ): Promise<ChannelOrders & ChannelPage<MarketplaceOrder>> {
    // The page names the 15-day slice being read and Shopee's cursor in it: a long window is read slice by slice
    // (Shopee's bounds are inclusive: the next slice starts a second after this one ends).
    const [sliceFrom, cursor] = page
      ? [Number(page.split(':')[0]), page.slice(page.indexOf(':') + 1)]
      : [window.from, ''];
    // A bare Shopee cursor (an import page from before the port) names no slice: refused, not read from 1970.
    if (!Number.isInteger(sliceFrom) || (page && !page.includes(':')))
      throw new ChannelError('request', `not a page of Shopee orders: ${page}`, { retryable: false });
    const sliceTo = Math.min(window.until, sliceFrom + SHOPEE_LIMITS.orderListRangeSeconds);
    const answer = await guarded(() =>
      this.client.getOrderList(this.shopId, {
        time_range_field: 'update_time',
        time_from: sliceFrom,
        time_to: sliceTo,
        page_size: SHOPEE_LIMITS.orderListPageSize,
        cursor,
      }),
    );
    const orders = await this.getOrders([...new Set(answer.order_list.map((order) => order.order_sn))]);
    const next =
      answer.more && answer.next_cursor
        ? `${sliceFrom}:${answer.next_cursor}`
        : sliceTo < window.until
          ? `${sliceTo + 1}:`
          : undefined;
    return { ...orders, ...(next ? { next } : {}) };
  }

  async getOrders(orderNumbers: string[]): Promise<ChannelOrders> {
    const details: ShopeeOrder[] = [];
    for (const batch of chunks(orderNumbers, SHOPEE_LIMITS.orderDetailBatch))
      details.push(
        ...(await guarded(() => this.client.getOrderDetail(this.shopId, { order_sn_list: batch })))
          .order_list,
      );
    const orders: ChannelOrders = { items: [], skipped: [] };
    for (const detail of details) {
      const trackingNumber = await this.trackingNumber(detail);
      try {
        orders.items.push(shopeeToMarketplaceOrder(detail, trackingNumber ? { trackingNumber } : {}));
      } catch (error) {
        if (!(error instanceof OrderTranslationError)) throw error;
        orders.skipped.push({ orderNumber: error.orderNumber, reason: error.reason });
      }
    }
    return orders;
  }

  // ---- inside ----

  /** The tracking number of an order whose shipment is arranged; none yet is no error. */
  private async trackingNumber(order: ShopeeOrder): Promise<string | undefined> {
    if (!SHOPEE_TRACKED_STATUSES.has(order.order_status)) return undefined;
    try {
      const answer = await this.client.getTrackingNumber(this.shopId, { order_sn: order.order_sn });
      return answer.tracking_number || undefined;
    } catch (error) {
      if (error instanceof ShopeeRequestError) return undefined;
      throw channelErrorOf(error);
    }
  }

  /** add_item's and update_item's fields of a draft, its images uploaded first. */
  private async itemFields(
    draft: ChannelItemDraft,
  ): Promise<Omit<AddItemRequest, 'original_price' | 'seller_stock'>> {
    const imageIds: string[] = [];
    for (const url of draft.images) {
      const image = await imageBytes(url);
      imageIds.push((await guarded(() => this.client.uploadImage(image))).image_info.image_id);
    }
    return {
      item_name: draft.name,
      description: draft.description,
      category_id: Number(draft.categoryId),
      weight: draft.weightKg,
      ...(draft.dimensionsCm
        ? {
            dimension: {
              package_length: draft.dimensionsCm.length,
              package_width: draft.dimensionsCm.width,
              package_height: draft.dimensionsCm.height,
            },
          }
        : {}),
      image: { image_id_list: imageIds },
      logistic_info: draft.logistics.map((id) => ({ logistic_id: Number(id), enabled: true })),
      item_sku: draft.sellerSku,
      condition: draft.condition === 'used' ? 'USED' : 'NEW',
      ...(draft.brand || draft.brandId
        ? { brand: { brand_id: Number(draft.brandId ?? 0), original_brand_name: draft.brand ?? '' } }
        : {}),
      ...(draft.gtin ? { gtin_code: draft.gtin } : {}),
      ...(draft.attributes?.length
        ? {
            attribute_list: draft.attributes.map((attribute) => ({
              attribute_id: Number(attribute.attributeId),
              attribute_value_list: attribute.values.map((value) => ({
                // A value of one's own goes with id 0 and its name (Shopee's rule for text and combo inputs).
                value_id: Number(value.valueId ?? 0),
                ...(value.valueId ? {} : { original_value_name: value.name }),
                ...(value.unit ? { value_unit: value.unit } : {}),
              })),
            })),
          }
        : {}),
    };
  }

  /** init_tier_variation with the draft's tiers and models; the models' new ids by seller SKU. */
  private async initTiers(itemId: number, draft: ChannelItemDraft): Promise<CreatedItem> {
    const request: InitTierVariationRequest = {
      item_id: itemId,
      tier_variation: draft.tiers.map((tier) => ({
        name: tier.name,
        option_list: tier.options.map((option) => ({ option })),
      })),
      model: draft.models.map((model) => ({
        tier_index: model.tierIndex,
        original_price: amount(model.price),
        model_sku: model.sellerSku,
        seller_stock: [{ stock: model.stock }],
        ...(draft.gtin ? { gtin_code: draft.gtin } : {}),
      })),
    };
    const answer = await guarded(() => this.client.initTierVariation(this.shopId, request));
    const byPlace = new Map(answer.model.map((model) => [model.tier_index.join(), String(model.model_id)]));
    return {
      itemId: String(itemId),
      models: draft.models.map((model) => ({
        sellerSku: model.sellerSku,
        modelId: byPlace.get(model.tierIndex.join()),
      })),
    };
  }

  /** Waits for both batches; any model refused is a failure of the whole change. */
  private async applyAll(...batches: Promise<UpdateOutcome[]>[]): Promise<void> {
    for (const outcome of (await Promise.all(batches)).flat()) {
      if (!outcome.ok) throw new ChannelError('request', outcome.reason, { retryable: outcome.retryable });
    }
  }

  /**
   * Per-model updates grouped by item and split by 50, one call each; each update's outcome from Shopee's
   * success_list / failure_list. A call that fails as a whole fails its updates (with the error's retryability);
   * when every call failed, the first failure is thrown instead.
   */
  private async perModel<T extends { itemId: string; modelId?: string }>(
    updates: readonly T[],
    send: (
      itemId: number,
      batch: T[],
    ) => Promise<{
      success_list: { model_id: number }[];
      failure_list: { model_id: number; failed_reason: string }[];
    }>,
  ): Promise<UpdateOutcome[]> {
    const outcomes: UpdateOutcome[] = new Array(updates.length);
    const byItem = new Map<string, number[]>();
    updates.forEach((update, index) => {
      byItem.set(update.itemId, [...(byItem.get(update.itemId) ?? []), index]);
    });
    const calls = [...byItem].flatMap(([itemId, indexes]) =>
      chunks(indexes, SHOPEE_LIMITS.modelBatch).map((batch) => ({ itemId, batch })),
    );
    let failures = 0;
    let first: ChannelError | undefined;
    const target = (index: number) => {
      const update = updates[index]!;
      return {
        itemId: update.itemId,
        ...(update.modelId !== undefined ? { modelId: update.modelId } : {}),
      };
    };
    // Items side by side (a store's stock burst is many items of a model or two each), a few at a time.
    await inTurns(
      calls,
      async ({ itemId, batch }) => {
        const entries = batch.map((index) => updates[index]!);
        try {
          const answer = await send(Number(itemId), entries);
          const failed = new Map(answer.failure_list.map((entry) => [entry.model_id, entry.failed_reason]));
          const succeeded = new Set(answer.success_list.map((entry) => entry.model_id));
          for (const index of batch) {
            const modelId = Number(updates[index]!.modelId ?? 0);
            outcomes[index] = succeeded.has(modelId)
              ? { ...target(index), ok: true }
              : {
                  ...target(index),
                  ok: false,
                  reason: failed.get(modelId) ?? 'Shopee did not answer for this model',
                  retryable: false,
                };
          }
        } catch (error) {
          const failure = channelErrorOf(error);
          failures++;
          first ??= failure;
          for (const index of batch)
            outcomes[index] = {
              ...target(index),
              ok: false,
              reason: failure.message,
              retryable: failure.retryable,
            };
        }
      },
      UPDATE_CALLS_AT_ONCE,
    );
    if (calls.length > 0 && failures === calls.length) throw first!;
    return outcomes;
  }

  private itemOf(
    info: ShopeeItemBaseInfo,
    models:
      | { tier_variation: { name: string; option_list: { option: string }[] }[]; model: ShopeeModel[] }
      | undefined,
  ): ChannelItem {
    const stockOf = (stock: ShopeeModel['stock_info_v2']) =>
      stock?.summary_info?.total_available_stock ??
      (stock?.seller_stock ?? []).reduce((sum, entry) => sum + entry.stock, 0);
    const channelModels: ChannelModel[] = (models?.model ?? []).map((model) => ({
      modelId: String(model.model_id),
      tierIndex: model.tier_index,
      sellerSku: model.model_sku ?? '',
      price: money(model.price_info[0]?.original_price ?? 0),
      stock: stockOf(model.stock_info_v2),
    }));
    const weight = info.weight === undefined ? Number.NaN : Number(info.weight);
    return {
      itemId: String(info.item_id),
      name: info.item_name,
      sellerSku: info.item_sku ?? '',
      status: STATUS_OF[info.item_status],
      categoryId: String(info.category_id),
      description: info.description ?? '',
      ...(info.brand?.original_brand_name ? { brand: info.brand.original_brand_name } : {}),
      images: info.image?.image_url_list ?? [],
      ...(Number.isFinite(weight) ? { weightKg: weight } : {}),
      ...(info.dimension
        ? {
            dimensionsCm: {
              length: info.dimension.package_length,
              width: info.dimension.package_width,
              height: info.dimension.package_height,
            },
          }
        : {}),
      price:
        channelModels.length > 0 ? channelModels[0]!.price : money(info.price_info?.[0]?.original_price ?? 0),
      stock:
        channelModels.length > 0
          ? channelModels.reduce((sum, model) => sum + model.stock, 0)
          : stockOf(info.stock_info_v2),
      tiers: (models?.tier_variation ?? []).map((tier) => ({
        name: tier.name,
        options: tier.option_list.map((option) => option.option),
      })),
      models: channelModels,
      updatedAt: info.update_time,
    };
  }
}
