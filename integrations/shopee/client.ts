import type { z } from 'zod';
import {
  ACCESS_TOKEN_ERRORS,
  errorFromAnswer,
  ShopeeAuthError,
  type ShopeeError,
  ShopeeNetworkError,
  ShopeeProtocolError,
  ShopeeRequestError,
  ShopeeServerError,
  ShopeeTimeoutError,
} from './errors';
import {
  type AddAddOnDealMainItemRequest,
  type AddAddOnDealRequest,
  type AddAddOnDealSubItemRequest,
  type AddDiscountItemRequest,
  type AddDiscountItemResult,
  type AddDiscountRequest,
  type AddItemRequest,
  type AttributeTree,
  type AttributeTreeRequest,
  accessTokenGetAnswer,
  addAddOnDealAnswer,
  addAddOnDealMainItemAnswer,
  addAddOnDealMainItemRequest,
  addAddOnDealRequest,
  addAddOnDealSubItemAnswer,
  addAddOnDealSubItemRequest,
  addDiscountAnswer,
  addDiscountItemAnswer,
  addDiscountItemRequest,
  addDiscountRequest,
  addItemAnswer,
  addItemRequest,
  addOnDealIdAnswer,
  addOnDealIdRequest,
  attributeTreeAnswer,
  attributeTreeRequest,
  type BrandListPage,
  type BrandListRequest,
  brandListAnswer,
  brandListRequest,
  type CancelOrderRequest,
  type CreateShippingDocumentRequest,
  type CreateShippingDocumentResult,
  cancelOrderAnswer,
  cancelOrderRequest,
  categoryAnswer,
  categoryRequest,
  createShippingDocumentAnswer,
  createShippingDocumentRequest,
  type DownloadShippingDocumentRequest,
  deleteItemRequest,
  discountChangeAnswer,
  discountIdRequest,
  downloadShippingDocumentRequest,
  envelopeSchema,
  type InitTierVariationRequest,
  type InitTierVariationResult,
  type ItemBaseInfoRequest,
  type ItemListPage,
  type ItemListRequest,
  initTierVariationAnswer,
  initTierVariationRequest,
  itemBaseInfoAnswer,
  itemBaseInfoRequest,
  itemListAnswer,
  itemListRequest,
  type ModelList,
  modelListAnswer,
  modelListRequest,
  ORDER_DETAIL_OPTIONAL_FIELDS,
  type OrderDetailPage,
  type OrderDetailRequest,
  type OrderListPage,
  type OrderListRequest,
  orderDetailAnswer,
  orderDetailRequest,
  orderListAnswer,
  orderListRequest,
  type SearchItemRequest,
  type SearchItemResult,
  SHOPEE_PATHS,
  type ShipOrderRequest,
  type ShippingDocumentResult,
  type ShippingDocumentResultRequest,
  type ShippingParameter,
  type ShippingParameterRequest,
  type ShopeeCategory,
  type ShopeeItemBaseInfo,
  type ShopeeShopInfo,
  searchItemAnswer,
  searchItemRequest,
  shipOrderRequest,
  shippingDocumentResultAnswer,
  shippingDocumentResultRequest,
  shippingParameterAnswer,
  shippingParameterRequest,
  shopInfoAnswer,
  type TrackingNumber,
  type TrackingNumberRequest,
  tokenGetAnswer,
  trackingNumberAnswer,
  trackingNumberRequest,
  type UnlistItemRequest,
  type UnlistItemResult,
  type UpdateItemRequest,
  type UpdatePriceRequest,
  type UpdatePriceResult,
  type UpdateStockRequest,
  type UpdateStockResult,
  type UploadedImage,
  unlistItemAnswer,
  unlistItemRequest,
  updateItemAnswer,
  updateItemRequest,
  updatePriceAnswer,
  updatePriceRequest,
  updateStockAnswer,
  updateStockRequest,
  uploadImageAnswer,
} from './schemas';
import { shopeeSign } from './signing';
import { HttpTimeout, httpRequest } from './transport';

/**
 * A client of the Shopee Open Platform v2 for the calls Kedai needs: shop authorisation, tokens, orders, shipping.
 *
 * - Every request is signed (see signing.ts) with the clock given as `now` (the sandbox's clock in tests).
 * - Shop calls take the shop's tokens from the caller's `ShopeeTokenStore`. An access token about to expire is
 *   refreshed before the call; one Shopee rejects as invalid or expired is refreshed and the call is sent again,
 *   once. The new pair goes to `tokens.save` before the call is retried (the refresh token rotates: losing it
 *   would cost the shop's authorisation). Refreshes of one shop are never run side by side.
 * - No other retries: a failure is thrown as a typed error (errors.ts) and the caller (the import workflow) decides.
 * - Requests are validated against the platform's limits before sending (15-day window, 100 per page, 50 orders
 *   per detail call); a refused one throws ShopeeRequestError without a request_id.
 */

export interface ShopeeTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in ms since the epoch (by the client's `now`). */
  expiresAt: number;
}

/**
 * Where the caller keeps each shop's tokens. `save` must persist the pair before it resolves.
 *
 * A client never runs two refreshes of one shop at once. When several clients (processes) share the tokens,
 * give the store a `lock` (a Postgres advisory lock on the shop, say): the client refreshes inside it, after
 * reading the tokens again, so a refresh token is never spent twice.
 */
export interface ShopeeTokenStore {
  load(shopId: number): Promise<ShopeeTokens | undefined>;
  save(shopId: number, tokens: ShopeeTokens): Promise<void>;
  lock?<T>(shopId: number, run: () => Promise<T>): Promise<T>;
}

export interface ShopeeClientOptions {
  /** SHOPEE_HOSTS.production, SHOPEE_HOSTS.sandbox, or a local sandbox's url. No trailing path. */
  baseUrl: string;
  partnerId: number;
  partnerKey: string;
  /** Needed for shop calls (orders, logistics, shop info). */
  tokens?: ShopeeTokenStore;
  /** Abort a call with ShopeeTimeoutError after this long (default 15 s). */
  timeoutMs?: number;
  /** The clock used for timestamps and token expiry, in ms since the epoch (default Date.now). */
  now?: () => number;
  /** Refresh before a call when the access token expires within this many ms (default 60 s). */
  refreshMarginMs?: number;
}

type Method = 'GET' | 'POST';
type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;

export interface ShopeeCall {
  path: string;
  method: Method;
  /** GET: request parameters (arrays are sent comma-separated). */
  query?: Record<string, QueryValue>;
  /** POST: the JSON body. */
  body?: unknown;
  /** POST: a multipart body instead (media_space/upload_image). */
  form?: FormData;
  /** Query keys whose arrays are sent as repeated parameters (get_item_list's item_status), not comma-separated. */
  repeated?: readonly string[];
  /** A shop call: signed with the shop's access token. */
  shopId?: number;
}

interface Answer {
  status: number;
  contentType: string;
  bytes: Buffer;
  retryAfterSeconds?: number;
}

/** How long a client keeps using the pair it read (real time), short of a refusal or the expiry margin. */
const TOKEN_HOLD_MS = 30_000;

export class ShopeeClient {
  readonly baseUrl: string;
  readonly partnerId: number;
  private readonly partnerKey: string;
  private readonly tokens: ShopeeTokenStore | undefined;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private readonly refreshMarginMs: number;
  private readonly refreshing = new Map<number, Promise<ShopeeTokens>>();
  /**
   * The pair each shop's calls last used, for a moment: a burst of calls (a stock push is a call per item) reads and
   * unseals the stored pair once, not per call. A held pair another process has replaced meanwhile is refused by
   * Shopee, and the refresh below reads the stored pair again before spending any refresh token.
   */
  private readonly held = new Map<number, { tokens: ShopeeTokens; until: number }>();

  constructor(options: ShopeeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.partnerId = options.partnerId;
    this.partnerKey = options.partnerKey;
    this.tokens = options.tokens;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.now = options.now ?? Date.now;
    this.refreshMarginMs = options.refreshMarginMs ?? 60_000;
  }

  // ---- authorisation ----

  /** The link a seller opens to authorise the shop; Shopee then redirects to `redirect` with `code` and `shop_id`. */
  authorizationUrl(redirect: string): string {
    const url = this.signedUrl(SHOPEE_PATHS.authPartner);
    url.searchParams.set('redirect', redirect);
    return url.toString();
  }

  /** auth/token/get: the code from the redirect → the shop's first token pair. */
  async getAccessToken(input: { code: string; shopId: number }): Promise<ShopeeTokens> {
    const body = { code: input.code, shop_id: input.shopId, partner_id: this.partnerId };
    const grant = await this.reauthorizeOnRefusal(() =>
      this.parsed({ path: SHOPEE_PATHS.tokenGet, method: 'POST', body }, tokenGetAnswer, 'top'),
    );
    return this.toTokens(grant);
  }

  /** auth/access_token/get: a new pair for the refresh token (which is then spent). Does not call `tokens.save`. */
  async refreshAccessToken(input: { shopId: number; refreshToken: string }): Promise<ShopeeTokens> {
    const body = { refresh_token: input.refreshToken, shop_id: input.shopId, partner_id: this.partnerId };
    const refreshed = await this.reauthorizeOnRefusal(() =>
      this.parsed({ path: SHOPEE_PATHS.accessTokenGet, method: 'POST', body }, accessTokenGetAnswer, 'top'),
    );
    return this.toTokens(refreshed);
  }

  // ---- shop ----

  async getShopInfo(shopId: number): Promise<ShopeeShopInfo> {
    return this.parsed({ path: SHOPEE_PATHS.shopInfo, method: 'GET', shopId }, shopInfoAnswer, 'top');
  }

  // ---- orders ----

  /** One page of orders created or updated in a window of at most 15 days. */
  async getOrderList(shopId: number, request: OrderListRequest): Promise<OrderListPage> {
    const query = this.valid(SHOPEE_PATHS.orderList, orderListRequest, request);
    return this.parsed({ path: SHOPEE_PATHS.orderList, method: 'GET', query, shopId }, orderListAnswer);
  }

  /** Every page of a window, following `next_cursor` until `more` is false. */
  async *orderListPages(
    shopId: number,
    request: Omit<OrderListRequest, 'cursor'>,
  ): AsyncGenerator<OrderListPage> {
    let cursor = '';
    for (;;) {
      const page = await this.getOrderList(shopId, { ...request, cursor });
      yield page;
      if (!page.more || !page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  /** Up to 50 orders in full. Without `response_optional_fields`, every optional field is asked for. */
  async getOrderDetail(shopId: number, request: OrderDetailRequest): Promise<OrderDetailPage> {
    const query = this.valid(SHOPEE_PATHS.orderDetail, orderDetailRequest, {
      ...request,
      response_optional_fields: request.response_optional_fields ?? [...ORDER_DETAIL_OPTIONAL_FIELDS],
    });
    return this.parsed({ path: SHOPEE_PATHS.orderDetail, method: 'GET', query, shopId }, orderDetailAnswer);
  }

  /** The seller cancels an order not yet shipped (UNPAID or READY_TO_SHIP); answers Shopee's update_time. */
  async cancelOrder(shopId: number, request: CancelOrderRequest): Promise<number> {
    const body = this.valid(SHOPEE_PATHS.cancelOrder, cancelOrderRequest, request);
    const answer = await this.parsed(
      { path: SHOPEE_PATHS.cancelOrder, method: 'POST', body, shopId },
      cancelOrderAnswer,
    );
    return answer.update_time;
  }

  // ---- logistics ----

  /** How the order can be shipped: pickup addresses and time slots, drop-off branches. */
  async getShippingParameter(shopId: number, request: ShippingParameterRequest): Promise<ShippingParameter> {
    const query = this.valid(SHOPEE_PATHS.shippingParameter, shippingParameterRequest, request);
    return this.parsed(
      { path: SHOPEE_PATHS.shippingParameter, method: 'GET', query, shopId },
      shippingParameterAnswer,
    );
  }

  /** Arrange shipment (pickup, dropoff or non_integrated): READY_TO_SHIP → PROCESSED. */
  async shipOrder(shopId: number, request: ShipOrderRequest): Promise<void> {
    const body = this.valid(SHOPEE_PATHS.shipOrder, shipOrderRequest, request);
    await this.call({ path: SHOPEE_PATHS.shipOrder, method: 'POST', body, shopId });
  }

  async getTrackingNumber(shopId: number, request: TrackingNumberRequest): Promise<TrackingNumber> {
    const query = this.valid(SHOPEE_PATHS.trackingNumber, trackingNumberRequest, request);
    return this.parsed(
      { path: SHOPEE_PATHS.trackingNumber, method: 'GET', query, shopId },
      trackingNumberAnswer,
    );
  }

  /** Start making the air waybills of up to 50 orders; poll getShippingDocumentResult until READY. */
  async createShippingDocument(
    shopId: number,
    request: CreateShippingDocumentRequest,
  ): Promise<CreateShippingDocumentResult> {
    const body = this.valid(SHOPEE_PATHS.createShippingDocument, createShippingDocumentRequest, request);
    return this.parsed(
      { path: SHOPEE_PATHS.createShippingDocument, method: 'POST', body, shopId },
      createShippingDocumentAnswer,
    );
  }

  async getShippingDocumentResult(
    shopId: number,
    request: ShippingDocumentResultRequest,
  ): Promise<ShippingDocumentResult> {
    const body = this.valid(SHOPEE_PATHS.shippingDocumentResult, shippingDocumentResultRequest, request);
    return this.parsed(
      { path: SHOPEE_PATHS.shippingDocumentResult, method: 'POST', body, shopId },
      shippingDocumentResultAnswer,
    );
  }

  /** The air waybills as one file (a PDF; Shopee may send HTML or ZIP for some channels and printer settings). */
  async downloadShippingDocument(shopId: number, request: DownloadShippingDocumentRequest): Promise<Buffer> {
    const body = this.valid(SHOPEE_PATHS.downloadShippingDocument, downloadShippingDocumentRequest, request);
    const path = SHOPEE_PATHS.downloadShippingDocument;
    return this.withShopToken(shopId, async (accessToken) => {
      const answer = await this.send({ path, method: 'POST', body, shopId }, accessToken);
      if (answer.status < 300 && !isJson(answer)) return answer.bytes;
      this.envelope(path, answer);
      throw new ShopeeProtocolError({ code: 'not_a_document', message: 'no file in the answer', path });
    });
  }

  // ---- products ----

  /** One page of the shop's items (ids, status, update time) in the given statuses. */
  async getItemList(shopId: number, request: ItemListRequest): Promise<ItemListPage> {
    const path = SHOPEE_PATHS.itemList;
    const query = this.valid(path, itemListRequest, request);
    return this.parsed({ path, method: 'GET', query, repeated: ['item_status'], shopId }, itemListAnswer);
  }

  /** Up to 50 items' base information; ids Shopee does not know are left out of the answer. */
  async getItemBaseInfo(shopId: number, request: ItemBaseInfoRequest): Promise<ShopeeItemBaseInfo[]> {
    const path = SHOPEE_PATHS.itemBaseInfo;
    const query = this.valid(path, itemBaseInfoRequest, request);
    return (await this.parsed({ path, method: 'GET', query, shopId }, itemBaseInfoAnswer)).item_list;
  }

  /** An item's tiers and models, each model with its price and stock. */
  async getModelList(shopId: number, itemId: number): Promise<ModelList> {
    const path = SHOPEE_PATHS.modelList;
    const query = this.valid(path, modelListRequest, { item_id: itemId });
    return this.parsed({ path, method: 'GET', query, shopId }, modelListAnswer);
  }

  /** Creates an item (without models; init_tier_variation gives it some); its item_id. */
  async addItem(shopId: number, request: AddItemRequest): Promise<number> {
    const path = SHOPEE_PATHS.addItem;
    const body = this.valid(path, addItemRequest, request);
    return (await this.parsed({ path, method: 'POST', body, shopId }, addItemAnswer)).item_id;
  }

  /** Changes the fields given of an item. */
  async updateItem(shopId: number, request: UpdateItemRequest): Promise<void> {
    const path = SHOPEE_PATHS.updateItem;
    const body = this.valid(path, updateItemRequest, request);
    await this.parsed({ path, method: 'POST', body, shopId }, updateItemAnswer);
  }

  /** Sets an item's tiers and models (at most 50); the models with their new ids. */
  async initTierVariation(
    shopId: number,
    request: InitTierVariationRequest,
  ): Promise<InitTierVariationResult> {
    const path = SHOPEE_PATHS.initTierVariation;
    const body = this.valid(path, initTierVariationRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, initTierVariationAnswer);
  }

  /** Prices of up to 50 models of one item; Shopee answers which were set and which refused. */
  async updatePrice(shopId: number, request: UpdatePriceRequest): Promise<UpdatePriceResult> {
    const path = SHOPEE_PATHS.updatePrice;
    const body = this.valid(path, updatePriceRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, updatePriceAnswer);
  }

  /** Seller stock of up to 50 models of one item; Shopee answers which were set and which refused. */
  async updateStock(shopId: number, request: UpdateStockRequest): Promise<UpdateStockResult> {
    const path = SHOPEE_PATHS.updateStock;
    const body = this.valid(path, updateStockRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, updateStockAnswer);
  }

  /** Lists (`unlist: false`) or unlists up to 50 items. */
  async unlistItem(shopId: number, request: UnlistItemRequest): Promise<UnlistItemResult> {
    const path = SHOPEE_PATHS.unlistItem;
    const body = this.valid(path, unlistItemRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, unlistItemAnswer);
  }

  async deleteItem(shopId: number, itemId: number): Promise<void> {
    const path = SHOPEE_PATHS.deleteItem;
    const body = this.valid(path, deleteItemRequest, { item_id: itemId });
    await this.call({ path, method: 'POST', body, shopId });
  }

  /** Item ids matching a search (a seller SKU, a name); `next_offset` is the next page's cursor. */
  async searchItem(shopId: number, request: SearchItemRequest): Promise<SearchItemResult> {
    const path = SHOPEE_PATHS.searchItem;
    const query = this.valid(path, searchItemRequest, request);
    return this.parsed({ path, method: 'GET', query, repeated: ['item_status'], shopId }, searchItemAnswer);
  }

  /** The shop's category tree, flat (each category names its parent; only leaves take items). */
  async getCategories(shopId: number, language?: string): Promise<ShopeeCategory[]> {
    const path = SHOPEE_PATHS.getCategory;
    const query = this.valid(path, categoryRequest, language ? { language } : {});
    return (await this.parsed({ path, method: 'GET', query, shopId }, categoryAnswer)).category_list;
  }

  /** The attributes of up to 20 leaf categories, each with its values and whether it is mandatory. */
  async getAttributeTree(shopId: number, request: AttributeTreeRequest): Promise<AttributeTree> {
    const path = SHOPEE_PATHS.getAttributeTree;
    const query = this.valid(path, attributeTreeRequest, request);
    return this.parsed({ path, method: 'GET', query, shopId }, attributeTreeAnswer);
  }

  /** One page of a leaf category's brands, and whether the category needs one. */
  async getBrandList(shopId: number, request: BrandListRequest): Promise<BrandListPage> {
    const path = SHOPEE_PATHS.getBrandList;
    const query = this.valid(path, brandListRequest, request);
    return this.parsed({ path, method: 'GET', query, shopId }, brandListAnswer);
  }

  /** Uploads an image (a partner call, multipart `image`); its image_id is what add_item takes. */
  async uploadImage(image: {
    bytes: Uint8Array;
    contentType: string;
    fileName?: string;
  }): Promise<UploadedImage> {
    const form = new FormData();
    form.append('image', new Blob([image.bytes], { type: image.contentType }), image.fileName ?? 'image');
    return this.parsed({ path: SHOPEE_PATHS.uploadImage, method: 'POST', form }, uploadImageAnswer);
  }

  // ---- discounts ----

  /** A discount promotion (its items come after); its discount_id. */
  async addDiscount(shopId: number, request: AddDiscountRequest): Promise<number> {
    const path = SHOPEE_PATHS.addDiscount;
    const body = this.valid(path, addDiscountRequest, request);
    return (await this.parsed({ path, method: 'POST', body, shopId }, addDiscountAnswer)).discount_id;
  }

  /** Up to 50 items into a discount, with their promotion prices; error_list names those refused. */
  async addDiscountItem(shopId: number, request: AddDiscountItemRequest): Promise<AddDiscountItemResult> {
    const path = SHOPEE_PATHS.addDiscountItem;
    const body = this.valid(path, addDiscountItemRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, addDiscountItemAnswer);
  }

  /** Ends an ongoing discount (`end_discount`) or deletes an upcoming one (`delete_discount`). */
  async closeDiscount(shopId: number, discountId: number, how: 'end' | 'delete'): Promise<void> {
    const path = how === 'end' ? SHOPEE_PATHS.endDiscount : SHOPEE_PATHS.deleteDiscount;
    const body = this.valid(path, discountIdRequest, { discount_id: discountId });
    await this.parsed({ path, method: 'POST', body, shopId }, discountChangeAnswer);
  }

  // ---- add-on deals ----

  /** An add-on deal (an add-on discount, or a gift with a minimum spend); its add_on_deal_id. */
  async addAddOnDeal(shopId: number, request: AddAddOnDealRequest): Promise<number> {
    const path = SHOPEE_PATHS.addAddOnDeal;
    const body = this.valid(path, addAddOnDealRequest, request);
    return (await this.parsed({ path, method: 'POST', body, shopId }, addAddOnDealAnswer)).add_on_deal_id;
  }

  /** The items to buy; those refused come back with fail_error. */
  async addAddOnDealMainItems(shopId: number, request: AddAddOnDealMainItemRequest) {
    const path = SHOPEE_PATHS.addAddOnDealMainItem;
    const body = this.valid(path, addAddOnDealMainItemRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, addAddOnDealMainItemAnswer);
  }

  /** The add-on (or gift) items; those refused come back with fail_error. */
  async addAddOnDealSubItems(shopId: number, request: AddAddOnDealSubItemRequest) {
    const path = SHOPEE_PATHS.addAddOnDealSubItem;
    const body = this.valid(path, addAddOnDealSubItemRequest, request);
    return this.parsed({ path, method: 'POST', body, shopId }, addAddOnDealSubItemAnswer);
  }

  /** Ends an ongoing add-on deal (`end_add_on_deal`) or deletes an upcoming one (`delete_add_on_deal`). */
  async closeAddOnDeal(shopId: number, addOnDealId: number, how: 'end' | 'delete'): Promise<void> {
    const path = how === 'end' ? SHOPEE_PATHS.endAddOnDeal : SHOPEE_PATHS.deleteAddOnDeal;
    const body = this.valid(path, addOnDealIdRequest, { add_on_deal_id: addOnDealId });
    await this.parsed({ path, method: 'POST', body, shopId }, addOnDealIdAnswer);
  }

  // ---- the protocol ----

  /**
   * Any call, signed (with the shop's token when `shopId` is given, refreshed as above); returns the whole JSON
   * answer once its `error` is known to be empty. For calls this class has no method for, and for tests.
   */
  async call(call: ShopeeCall): Promise<Record<string, unknown>> {
    const run = async (accessToken?: string) => this.envelope(call.path, await this.send(call, accessToken));
    return call.shopId === undefined ? run() : this.withShopToken(call.shopId, run);
  }

  private async parsed<T extends z.ZodType>(
    call: ShopeeCall,
    schema: T,
    where: 'response' | 'top' = 'response',
  ): Promise<z.infer<T>> {
    const answer = await this.call(call);
    const result = schema.safeParse(where === 'top' ? answer : answer.response);
    if (!result.success) {
      throw new ShopeeProtocolError({
        code: 'unexpected_answer',
        message: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
        path: call.path,
        requestId: typeof answer.request_id === 'string' ? answer.request_id : undefined,
      });
    }
    return result.data;
  }

  private valid<T extends z.ZodType>(path: string, schema: T, input: z.input<T>): z.infer<T> {
    const result = schema.safeParse(input);
    if (result.success) return result.data;
    throw new ShopeeRequestError({
      code: 'error_param',
      message: result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      path,
    });
  }

  /** Runs a shop call with a live access token; on a rejected token, refreshes and runs it once more. */
  private async withShopToken<T>(shopId: number, run: (accessToken: string) => Promise<T>): Promise<T> {
    let tokens = await this.currentTokens(shopId);
    if (tokens.expiresAt - this.now() <= this.refreshMarginMs)
      tokens = await this.replaceToken(shopId, tokens);
    try {
      return await run(tokens.accessToken);
    } catch (error) {
      if (!(error instanceof ShopeeAuthError) || !ACCESS_TOKEN_ERRORS.has(error.code)) throw error;
      const fresh = await this.replaceToken(shopId, tokens);
      return run(fresh.accessToken);
    }
  }

  private async currentTokens(shopId: number): Promise<ShopeeTokens> {
    const held = this.held.get(shopId);
    if (held && held.until > performance.now()) return held.tokens;
    return this.hold(shopId, await this.loadTokens(shopId));
  }

  private hold(shopId: number, tokens: ShopeeTokens): ShopeeTokens {
    this.held.set(shopId, { tokens, until: performance.now() + TOKEN_HOLD_MS });
    return tokens;
  }

  private async loadTokens(shopId: number): Promise<ShopeeTokens> {
    if (!this.tokens) throw new TypeError('ShopeeClient: shop calls need the `tokens` option');
    const tokens = await this.tokens.load(shopId);
    if (!tokens) {
      throw new ShopeeAuthError({
        code: 'not_authorized',
        message: `no tokens stored for shop ${shopId}`,
        path: '',
        reauthorize: true,
      });
    }
    return tokens;
  }

  /**
   * A pair to use instead of `stale`: the stored one when another call already replaced it, else a refreshed one
   * (saved before it is returned). One refresh per shop at a time: a refresh token is good for one use only.
   */
  private replaceToken(shopId: number, stale: ShopeeTokens): Promise<ShopeeTokens> {
    const running = this.refreshing.get(shopId);
    if (running) return running;
    const store = this.tokens!;
    const replace = async () => {
      const stored = await this.loadTokens(shopId);
      if (stored.accessToken !== stale.accessToken && stored.expiresAt - this.now() > this.refreshMarginMs)
        return this.hold(shopId, stored);
      const fresh = await this.refreshAccessToken({ shopId, refreshToken: stored.refreshToken });
      await store.save(shopId, fresh);
      return this.hold(shopId, fresh);
    };
    const refresh = store.lock ? store.lock(shopId, replace) : replace();
    this.refreshing.set(shopId, refresh);
    refresh.then(
      () => this.refreshing.delete(shopId),
      () => this.refreshing.delete(shopId),
    );
    return refresh;
  }

  private async reauthorizeOnRefusal<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof ShopeeAuthError || (error instanceof ShopeeRequestError && error.requestId)) {
        throw new ShopeeAuthError({
          code: error.code,
          message: error.message,
          path: error.path,
          requestId: error.requestId,
          status: error.status,
          reauthorize: true,
        });
      }
      throw error;
    }
  }

  private toTokens(grant: { access_token: string; refresh_token: string; expire_in: number }): ShopeeTokens {
    return {
      accessToken: grant.access_token,
      refreshToken: grant.refresh_token,
      expiresAt: this.now() + grant.expire_in * 1000,
    };
  }

  private signedUrl(path: string, shop?: { shopId: number; accessToken: string }): URL {
    const timestamp = Math.floor(this.now() / 1000);
    // Appended, not resolved: a base URL with a path of its own (behind a proxy) keeps it.
    const url = new URL(`${this.baseUrl}${path}`);
    url.searchParams.set('partner_id', String(this.partnerId));
    url.searchParams.set('timestamp', String(timestamp));
    if (shop) {
      url.searchParams.set('access_token', shop.accessToken);
      url.searchParams.set('shop_id', String(shop.shopId));
    }
    url.searchParams.set(
      'sign',
      shopeeSign(this.partnerKey, { partnerId: this.partnerId, path, timestamp, ...shop }),
    );
    return url;
  }

  private async send(call: ShopeeCall, accessToken?: string): Promise<Answer> {
    const shop = call.shopId !== undefined && accessToken ? { shopId: call.shopId, accessToken } : undefined;
    const url = this.signedUrl(call.path, shop);
    for (const [key, value] of Object.entries(call.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value) && call.repeated?.includes(key))
        for (const one of value) url.searchParams.append(key, String(one));
      else url.searchParams.set(key, Array.isArray(value) ? value.join(',') : String(value));
    }
    const json = call.method === 'POST' && !call.form;
    try {
      const body = call.form ?? (json ? JSON.stringify(call.body ?? {}) : undefined);
      const response = await httpRequest(
        url,
        {
          method: call.method,
          headers: json ? { 'content-type': 'application/json' } : {},
          ...(body !== undefined ? { body } : {}),
        },
        this.timeoutMs,
      );
      const retryAfter = Number(response.headers['retry-after'] ?? Number.NaN);
      return {
        status: response.status,
        contentType: response.headers['content-type'] ?? '',
        bytes: response.bytes,
        retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : undefined,
      };
    } catch (error) {
      if (error instanceof HttpTimeout) {
        throw new ShopeeTimeoutError({
          code: 'timeout',
          message: `no answer within ${this.timeoutMs} ms`,
          path: call.path,
        });
      }
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const message = cause instanceof Error ? cause.message : String(cause);
      throw new ShopeeNetworkError({ code: 'network', message, path: call.path });
    }
  }

  /** The JSON answer once its `error` is empty; the typed error otherwise. */
  private envelope(path: string, answer: Answer): Record<string, unknown> {
    let json: unknown;
    try {
      json = JSON.parse(answer.bytes.toString('utf8'));
    } catch {
      const details = {
        code: `http_${answer.status}`,
        message: 'the answer is not JSON',
        path,
        status: answer.status,
      };
      throw answer.status >= 500 ? new ShopeeServerError(details) : failure(details, answer);
    }
    const parsed = envelopeSchema.safeParse(json);
    if (!parsed.success || typeof json !== 'object' || json === null) {
      throw new ShopeeProtocolError({
        code: 'unexpected_answer',
        message: 'not a Shopee answer',
        path,
        status: answer.status,
      });
    }
    const { error, message, request_id } = parsed.data;
    if (error || answer.status >= 300) {
      throw failure(
        {
          code: error || `http_${answer.status}`,
          message: message ?? '',
          path,
          requestId: request_id,
          status: answer.status,
        },
        answer,
      );
    }
    return json as Record<string, unknown>;
  }
}

const isJson = (answer: Answer) =>
  answer.contentType.includes('json') || answer.bytes.subarray(0, 1).toString('latin1') === '{';

function failure(details: Parameters<typeof errorFromAnswer>[0], answer: Answer): ShopeeError {
  return errorFromAnswer({ ...details, status: answer.status, retryAfterSeconds: answer.retryAfterSeconds });
}
