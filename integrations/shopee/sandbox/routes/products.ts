import {
  addItemRequest,
  deleteItemRequest,
  initTierVariationRequest,
  itemBaseInfoRequest,
  itemListRequest,
  modelListRequest,
  SHOPEE_PATHS,
  type ShopeeItemBaseInfo,
  type ShopeeModel,
  searchItemRequest,
  unlistItemRequest,
  updateItemRequest,
  updatePriceRequest,
  updateStockRequest,
} from '../../schemas';
import { stampSeconds } from '../generator';
import type { SandboxItem, SandboxModel, SandboxShop } from '../state';
import type { SandboxWorld } from '../world';
import { checkItemCategory } from './categories';
import { parse, queryOf, Refusal, type RouteTable, wrongParameters } from './common';

/**
 * The product calls (get_item_list, get_item_base_info, search_item, get_model_list, add_item, update_item,
 * init_tier_variation, update_price, update_stock, unlist_item, delete_item) and media_space/upload_image, over
 * the shop's items (world.items): price and seller stock per model, or on the item when it has no tiers. Batch
 * calls answer Shopee's success_list / failure_list per model. Uploaded images are kept in memory only (their
 * ids and URLs stay valid while the sandbox runs).
 */

const CURRENCY = 'MYR';
const MAX_IMAGES = 500;

const itemNotFound = () => new Refusal(400, 'error_item_not_found', 'Item_id is not found.');

function stockInfo(stock: number) {
  return {
    summary_info: { total_reserved_stock: 0, total_available_stock: stock },
    seller_stock: [{ location_id: '', stock }],
  };
}

/** get_item_list's and search_item's statuses: repeated parameters, a comma-separated one taken too. */
const statusesOf = (url: URL) => url.searchParams.getAll('item_status').flatMap((value) => value.split(','));

const priceInfo = (price: number) => [{ currency: CURRENCY, original_price: price, current_price: price }];

export interface StoredImage {
  bytes: Buffer;
  contentType: string;
}

/** The `image` part of a multipart body (what upload_image receives), or undefined. */
function imagePart(body: Buffer, contentType: string): StoredImage | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const next = body.indexOf(delimiter, at + delimiter.length);
    if (next === -1) return undefined;
    const part = body.subarray(at + delimiter.length, next);
    const split = part.indexOf('\r\n\r\n');
    const head = part.subarray(0, split).toString('latin1');
    if (split !== -1 && /name="image"/.test(head)) {
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? 'application/octet-stream';
      // The part's bytes end before the CRLF that precedes the next delimiter.
      return { bytes: Buffer.from(part.subarray(split + 4, part.length - 2)), contentType: type };
    }
    at = next;
  }
  return undefined;
}

export function productRoutes(
  world: SandboxWorld,
  options: {
    baseUrl: () => string;
    images: Map<string, StoredImage>;
    onStockSet?: (change: { shopId: number; itemId: number; modelId: number; stock: number }) => void;
  },
): RouteTable {
  const imageUrl = (imageId: string) => `${options.baseUrl()}/sandbox/file/${imageId}`;
  const itemOf = (shop: SandboxShop | undefined, itemId: number) => {
    const item = world.item(shop!, itemId);
    if (!item) throw itemNotFound();
    return item;
  };
  const touched = (item: SandboxItem, now: number) => {
    item.update_time = stampSeconds(now);
    world.changed();
  };

  const baseInfo = (item: SandboxItem): ShopeeItemBaseInfo => ({
    item_id: item.item_id,
    category_id: item.category_id,
    item_name: item.item_name,
    description: item.description,
    item_sku: item.item_sku,
    create_time: item.create_time,
    update_time: item.update_time,
    ...(item.models.length === 0
      ? { price_info: priceInfo(item.price), stock_info_v2: stockInfo(item.stock) }
      : {}),
    image: { image_id_list: item.image_ids, image_url_list: item.image_ids.map(imageUrl) },
    weight: item.weight.toFixed(2),
    ...(item.dimension ? { dimension: item.dimension } : {}),
    logistic_info: item.logistic_ids.map((id) => ({ logistic_id: id, enabled: true })),
    condition: item.condition,
    item_status: item.item_status,
    has_model: item.models.length > 0,
    ...(item.brand ? { brand: item.brand } : {}),
  });

  const modelView = (model: SandboxModel): ShopeeModel => ({
    model_id: model.model_id,
    tier_index: model.tier_index,
    model_sku: model.model_sku,
    model_status: 'MODEL_NORMAL',
    price_info: priceInfo(model.price),
    stock_info_v2: stockInfo(model.stock),
  });

  /** One batch of per-model changes: each applied or refused with Shopee's reason, never the whole call. */
  const perModel = <T extends { model_id?: number }, S>(
    shop: SandboxShop | undefined,
    itemId: number,
    list: readonly T[],
    apply: (holder: SandboxItem | SandboxModel, entry: T) => S,
    now: number,
  ) => {
    const item = itemOf(shop, itemId);
    const seen = new Set<number>();
    const success_list: S[] = [];
    const failure_list: { model_id: number; failed_reason: string }[] = [];
    for (const entry of list) {
      const modelId = entry.model_id ?? 0;
      if (seen.has(modelId)) throw wrongParameters('Repeat model_id.');
      seen.add(modelId);
      const found = world.findModel(shop!, itemId, modelId);
      if (!found) {
        failure_list.push({
          model_id: modelId,
          failed_reason:
            modelId === 0 ? "Can't edit item directly while item has models." : 'Wrong model_id.',
        });
        continue;
      }
      success_list.push(apply(found.holder, entry));
    }
    if (success_list.length > 0) touched(item, now);
    return { failure_list, success_list };
  };

  return [
    [
      SHOPEE_PATHS.itemList,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }) {
          const request = parse(itemListRequest, {
            ...queryOf(url, ['offset', 'page_size', 'update_time_from', 'update_time_to']),
            item_status: statusesOf(url),
          });
          const statuses = new Set<string>(request.item_status);
          const matching = world
            .items(shop!)
            .filter(
              (item) =>
                statuses.has(item.item_status) &&
                (request.update_time_from === undefined || item.update_time >= request.update_time_from) &&
                (request.update_time_to === undefined || item.update_time <= request.update_time_to),
            );
          const page = matching.slice(request.offset, request.offset + request.page_size);
          const nextOffset = request.offset + page.length;
          return {
            item: page.map((item) => ({
              item_id: item.item_id,
              item_status: item.item_status,
              update_time: item.update_time,
            })),
            total_count: matching.length,
            has_next_page: nextOffset < matching.length,
            next_offset: nextOffset,
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.itemBaseInfo,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }) {
          const query = queryOf(url, [], ['item_id_list']);
          const ids = (query.item_id_list as string[] | undefined)?.map(Number);
          const request = parse(itemBaseInfoRequest, { item_id_list: ids });
          const items = world.items(shop!);
          return {
            item_list: request.item_id_list.flatMap((id) => {
              const item = items.find((candidate) => candidate.item_id === id);
              return item ? [baseInfo(item)] : [];
            }),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.searchItem,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }) {
          const request = parse(searchItemRequest, {
            ...queryOf(url, ['page_size', 'attribute_status']),
            ...(url.searchParams.has('item_status') ? { item_status: statusesOf(url) } : {}),
          });
          if (
            request.item_name === undefined &&
            request.item_sku === undefined &&
            request.attribute_status === undefined
          )
            throw wrongParameters('request must set one of [item_name,attribute_status]');
          const statuses = new Set<string>(
            request.item_status ?? ['NORMAL', 'UNLIST', 'BANNED', 'REVIEWING'],
          );
          const contains = (text: string, keyword: string) =>
            text.toLowerCase().includes(keyword.toLowerCase());
          // A keyword search, as Shopee's: an item whose SKU (or one of its models') contains the SKU matches; the
          // SKU wins over the name when both are given.
          const matching = world
            .items(shop!)
            .filter(
              (item) =>
                statuses.has(item.item_status) &&
                (request.item_sku !== undefined
                  ? contains(item.item_sku, request.item_sku) ||
                    item.models.some((model) => contains(model.model_sku, request.item_sku!))
                  : contains(item.item_name, request.item_name ?? '')),
            );
          const offset = Number(request.offset ?? 0) || 0;
          const page = matching.slice(offset, offset + request.page_size);
          const next = offset + page.length;
          return {
            item_id_list: page.map((item) => item.item_id),
            total_count: matching.length,
            ...(next < matching.length ? { next_offset: String(next) } : {}),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.modelList,
      {
        method: 'GET',
        level: 'shop',
        placement: 'response',
        handle({ url, shop }) {
          const request = parse(modelListRequest, queryOf(url, ['item_id']));
          const item = itemOf(shop, request.item_id);
          return {
            tier_variation: item.tiers.map((tier) => ({
              name: tier.name,
              option_list: tier.options.map((option) => ({ option })),
            })),
            model: item.models.map(modelView),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.addItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(addItemRequest, body);
          checkItemCategory(request);
          const seconds = stampSeconds(now);
          const item: SandboxItem = {
            item_id: world.newListingId(),
            item_sku: request.item_sku ?? '',
            item_name: request.item_name,
            description: request.description,
            category_id: request.category_id,
            item_status: request.item_status ?? 'NORMAL',
            create_time: seconds,
            update_time: seconds,
            weight: request.weight,
            ...(request.dimension ? { dimension: request.dimension } : {}),
            image_ids: request.image.image_id_list,
            logistic_ids: request.logistic_info.filter((l) => l.enabled).map((l) => l.logistic_id),
            condition: request.condition ?? 'NEW',
            ...(request.brand ? { brand: request.brand } : {}),
            ...(request.attribute_list ? { attribute_list: request.attribute_list } : {}),
            price: request.original_price,
            stock: request.seller_stock.reduce((sum, entry) => sum + entry.stock, 0),
            tiers: [],
            models: [],
          };
          world.items(shop!).push(item);
          world.changed();
          return { ...baseInfo(item), price_info: priceInfo(item.price) };
        },
      },
    ],
    [
      SHOPEE_PATHS.updateItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(updateItemRequest, body);
          const item = itemOf(shop, request.item_id);
          // What the item keeps of the fields not given is checked with the new ones.
          checkItemCategory({
            category_id: request.category_id ?? item.category_id,
            attribute_list: request.attribute_list ?? item.attribute_list,
            brand: request.brand ?? item.brand,
          });
          if (request.item_name !== undefined) item.item_name = request.item_name;
          if (request.description !== undefined) item.description = request.description;
          if (request.category_id !== undefined) item.category_id = request.category_id;
          if (request.weight !== undefined) item.weight = request.weight;
          if (request.dimension !== undefined) item.dimension = request.dimension;
          if (request.image !== undefined) item.image_ids = request.image.image_id_list;
          if (request.logistic_info !== undefined)
            item.logistic_ids = request.logistic_info.filter((l) => l.enabled).map((l) => l.logistic_id);
          if (request.item_sku !== undefined) item.item_sku = request.item_sku;
          if (request.condition !== undefined) item.condition = request.condition;
          if (request.item_status !== undefined) item.item_status = request.item_status;
          if (request.brand !== undefined) item.brand = request.brand;
          if (request.attribute_list !== undefined) item.attribute_list = request.attribute_list;
          touched(item, now);
          return baseInfo(item);
        },
      },
    ],
    [
      SHOPEE_PATHS.initTierVariation,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(initTierVariationRequest, body);
          const item = itemOf(shop, request.item_id);
          const tiers = request.tier_variation;
          const names = new Set(tiers.map((tier) => tier.name));
          if (names.size !== tiers.length)
            throw new Refusal(400, 'error_model_duplicate_name', 'Item tier_variation have duplicate name.');
          const combinations = new Set<string>();
          for (const model of request.model) {
            if (
              model.tier_index.length !== tiers.length ||
              model.tier_index.some((index, tier) => index >= tiers[tier]!.option_list.length)
            )
              throw new Refusal(400, 'error_model_tier_index_bound', 'Invalid item iter_index.');
            const key = model.tier_index.join(',');
            if (combinations.has(key))
              throw new Refusal(
                400,
                'error_model_duplicate_tier_variation_index',
                'Item have duplicate tier_index.',
              );
            combinations.add(key);
          }
          // A model with the same place and SKU keeps its id; any other is new.
          const previous = new Map(
            item.models.map((model) => [`${model.tier_index}|${model.model_sku}`, model]),
          );
          item.tiers = tiers.map((tier) => ({
            name: tier.name,
            options: tier.option_list.map((option) => option.option),
          }));
          item.models = request.model.map((model) => ({
            model_id:
              previous.get(`${model.tier_index}|${model.model_sku ?? ''}`)?.model_id ?? world.newListingId(),
            tier_index: model.tier_index,
            model_sku: model.model_sku ?? '',
            price: model.original_price,
            stock: model.seller_stock.reduce((sum, entry) => sum + entry.stock, 0),
          }));
          item.stock = 0;
          touched(item, now);
          return {
            item_id: item.item_id,
            tier_variation: tiers.map((tier) => ({
              name: tier.name,
              option_list: tier.option_list.map((option) => ({ option: option.option })),
            })),
            model: item.models.map((model) => ({
              tier_index: model.tier_index,
              model_id: model.model_id,
              model_sku: model.model_sku,
              price_info: [{ original_price: model.price }],
              seller_stock: [{ location_id: '', stock: model.stock }],
            })),
          };
        },
      },
    ],
    [
      SHOPEE_PATHS.updatePrice,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(updatePriceRequest, body);
          return perModel(
            shop,
            request.item_id,
            request.price_list,
            (holder, entry) => {
              holder.price = entry.original_price;
              return { model_id: entry.model_id ?? 0, original_price: entry.original_price };
            },
            now,
          );
        },
      },
    ],
    [
      SHOPEE_PATHS.updateStock,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(updateStockRequest, body);
          return perModel(
            shop,
            request.item_id,
            request.stock_list,
            (holder, entry) => {
              holder.stock = entry.seller_stock.reduce((sum, one) => sum + one.stock, 0);
              options.onStockSet?.({
                shopId: shop!.shop_id,
                itemId: request.item_id,
                modelId: entry.model_id ?? 0,
                stock: holder.stock,
              });
              return { model_id: entry.model_id ?? 0, location_id: '', stock: holder.stock };
            },
            now,
          );
        },
      },
    ],
    [
      SHOPEE_PATHS.unlistItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(unlistItemRequest, body);
          const success_list: { item_id: number; unlist: boolean }[] = [];
          const failure_list: { item_id: number; failed_reason: string }[] = [];
          for (const entry of request.item_list) {
            const item = world.item(shop!, entry.item_id);
            if (!item || (item.item_status !== 'NORMAL' && item.item_status !== 'UNLIST')) {
              failure_list.push({
                item_id: entry.item_id,
                failed_reason: item ? 'Item status can not support editing.' : 'Item_id is not found.',
              });
              continue;
            }
            item.item_status = entry.unlist ? 'UNLIST' : 'NORMAL';
            touched(item, now);
            success_list.push({ item_id: entry.item_id, unlist: entry.unlist });
          }
          return { failure_list, success_list };
        },
      },
    ],
    [
      SHOPEE_PATHS.deleteItem,
      {
        method: 'POST',
        level: 'shop',
        placement: 'response',
        handle({ body, shop, now }) {
          const request = parse(deleteItemRequest, body);
          const item = itemOf(shop, request.item_id);
          item.item_status = 'SELLER_DELETE';
          touched(item, now);
          return {};
        },
      },
    ],
    [
      SHOPEE_PATHS.uploadImage,
      {
        method: 'POST',
        level: 'public',
        placement: 'response',
        body: 'raw',
        handle({ raw, contentType }) {
          const image = imagePart(raw ?? Buffer.alloc(0), contentType ?? '');
          if (!image || image.bytes.length === 0) throw wrongParameters('image is required.');
          if (!image.contentType.startsWith('image/'))
            throw new Refusal(400, 'error_invalid_image', 'The file is not an image.');
          const imageId = `sbx${world.newListingId().toString(36)}`;
          options.images.set(imageId, image);
          // Only the latest are kept: the sandbox is not an image host.
          if (options.images.size > MAX_IMAGES) options.images.delete(options.images.keys().next().value!);
          return {
            image_info: {
              image_id: imageId,
              image_url_list: [{ image_url_region: 'MY', image_url: imageUrl(imageId) }],
            },
          };
        },
      },
    ],
  ];
}
