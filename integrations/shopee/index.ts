/**
 * # Shopee Open Platform v2: the client and our sandbox
 *
 * ## Client (`ShopeeClient`, client.ts)
 * ```ts
 * const shopee = new ShopeeClient({
 *   baseUrl: SHOPEE_HOSTS.production,        // or SHOPEE_HOSTS.sandbox, or sandbox.url
 *   partnerId, partnerKey,
 *   tokens: { load: (shopId) => …, save: (shopId, tokens) => … },   // ShopeeTokenStore: you keep the tokens
 *   timeoutMs: 15_000,                       // → ShopeeTimeoutError
 *   now: () => Date.now(),                   // signing timestamps and token expiry
 * });
 * // connecting a store
 * shopee.authorizationUrl(redirect)          // send the seller here; Shopee redirects to `redirect?code=…&shop_id=…`
 * const tokens = await shopee.getAccessToken({ code, shopId });   // → { accessToken, refreshToken, expiresAt }
 * await tokenStore.save(shopId, tokens);
 * await shopee.getShopInfo(shopId)           // { shop_name, region, status, … }
 * // orders (answers are Shopee's own shapes, snake_case, parsed with zod: see schemas.ts)
 * await shopee.getOrderList(shopId, { time_range_field: 'update_time', time_from, time_to, page_size: 100,
 *                                     cursor, order_status?, response_optional_fields?: ['order_status'] })
 *   // → { more, next_cursor, order_list: [{ order_sn, order_status? }] }; window ≤ 15 days, page ≤ 100
 * for await (const page of shopee.orderListPages(shopId, { … })) …   // follows next_cursor
 * await shopee.getOrderDetail(shopId, { order_sn_list })   // ≤ 50; every optional field unless you pick some
 *   // → { order_list: ShopeeOrder[] }: buyer, recipient_address, item_list (item_sku / model_sku), cod,
 *   //    payment_method, total_amount, shipping_carrier, pay_time, create_time, update_time, package_list, …
 * // shipping
 * await shopee.getShippingParameter(shopId, { order_sn })   // pickup address_id + time slots, dropoff
 * await shopee.shipOrder(shopId, { order_sn, pickup: { address_id, pickup_time_id } } | { order_sn, dropoff: {} })
 * await shopee.getTrackingNumber(shopId, { order_sn })      // { tracking_number, hint? }
 * await shopee.createShippingDocument(shopId, { order_list: [{ order_sn, tracking_number }] })
 * await shopee.getShippingDocumentResult(shopId, { order_list: [{ order_sn }] })   // poll until READY
 * const pdf = await shopee.downloadShippingDocument(shopId, { order_list: [{ order_sn }] })   // Buffer
 * // products (one item and ≤ 50 models a call for stock and price; ≤ 50 items for base info)
 * await shopee.getItemList(shopId, { offset, page_size, item_status: ['NORMAL', 'UNLIST'] })
 * await shopee.getItemBaseInfo(shopId, { item_id_list })   await shopee.getModelList(shopId, itemId)
 * await shopee.uploadImage({ bytes, contentType })         // → image_info.image_id for add_item
 * await shopee.addItem(shopId, { …, image: { image_id_list }, original_price, seller_stock: [{ stock }] })
 * await shopee.initTierVariation(shopId, { item_id, tier_variation, model })   // models' ids
 * await shopee.updateItem / updatePrice / updateStock (success_list, failure_list) / unlistItem / deleteItem
 * // promotions: a discount's items (promotion prices) and a gift-with-purchase add-on deal's main and gift items
 * await shopee.addDiscount / addDiscountItem / closeDiscount(shopId, id, 'end' | 'delete')
 * await shopee.addAddOnDeal / addAddOnDealMainItems / addAddOnDealSubItems / closeAddOnDeal(shopId, id, 'end' | 'delete')
 * await shopee.call({ path, method, query | body, shopId? })   // any other call, signed; the raw JSON answer
 * ```
 * `ShopeeChannel` (channel.ts) is the channel port's adapter over these (integrations/channel: `channelFor`).
 * Shop calls refresh the access token when it is about to expire, or once when Shopee rejects it
 * (`invalid_acceess_token`), saving the new pair through `tokens.save` first; nothing else is retried. One client
 * never refreshes a shop twice at once; processes sharing tokens give the store a `lock(shopId, run)` (an advisory
 * lock, say), inside which the client re-reads the tokens before refreshing, so a refresh token is spent once.
 *
 * Failures (errors.ts), all `ShopeeError` with `code` (Shopee's `error`), `requestId`, `status`, `retryable`:
 * `ShopeeAuthError` (token/code/authorisation refused; `reauthorize` when the seller must authorise again),
 * `ShopeeSignatureError` (`error_sign`, stale timestamp), `ShopeeRateLimitError` (`retryAfterSeconds`),
 * `ShopeeServerError` (5xx), `ShopeeTimeoutError`, `ShopeeNetworkError`, `ShopeeRequestError` (`error_param`,
 * logistics refusals, and requests the client refuses before sending), `ShopeeProtocolError` (unexpected shape).
 * Signing alone: `shopeeSign(partnerKey, { partnerId, path, timestamp, accessToken?, shopId? })`.
 *
 * ## Sandbox (`startShopeeSandbox`, sandbox/server.ts)
 * ```ts
 * const sandbox = await startShopeeSandbox({
 *   partners: [{ partnerId, partnerKey, name? }],
 *   port?, host?, store?: jsonFileStore(dir) | memoryStore(), orderRate?: ordersPerHourPerShop,
 *   skus?: ['SKU-1', { sku, name, variation?, parentSku?, price? }], seed?, clock?: manualClock(ms), …
 * });
 * sandbox.url; sandbox.shops; sandbox.createShop({ name }); sandbox.generateOrders(n, { shopId? });
 * sandbox.orders(shopId?); sandbox.order(orderSn); sandbox.setOrderStatus(orderSn, 'CANCELLED');
 * sandbox.authorize(partnerId, shopId) → code; sandbox.issueTokens(partnerId, shopId) → tokens;
 * sandbox.failNext({ kind: 'signature' | 'expired' | '5xx' | 'timeout' | 'rate_limit', times?, path? });
 * sandbox.failNext({ kind: 'error', error: 'error_system_busy', status: 500, path? } | { kind: 'lag', delayMs });
 * sandbox.setShopRateLimit({ burst, perSecond } | false); sandbox.stockOf(shopId, itemId, modelId?);
 * // the same over HTTP for another process: POST /sandbox/control/{fail,reset,throttle}, GET /sandbox/control/stock
 * sandbox.tick(); sandbox.requests; await sandbox.flush(); await sandbox.stop();
 * ```
 * It verifies every signature and timestamp, tokens expire on its clock (access 4 h, refresh 30 d and rotated),
 * `/api/v2/shop/auth_partner` shows an "Authorize <shop> for <partner>" page whose button redirects with
 * `code` and `shop_id`, and orders arrive and move along by themselves (UNPAID → READY_TO_SHIP → PROCESSED on
 * ship_order → SHIPPED → TO_CONFIRM_RECEIVE → COMPLETED; some CANCELLED). Its shops' products are items with
 * per-model stock and price (each order lowers the stock it sells), served by the product calls; each shop's
 * calls draw on a token bucket (DEFAULT_SHOP_RATE_LIMIT) past which Shopee's 429 answers. `sandbox/main.ts` runs it alone;
 * `sandboxOptionsFromEnv(process.env)` and `SANDBOX_DEMO_PARTNER` (sandbox/config.ts) are for `npm start`.
 */

export {
  type ShopeeCall,
  ShopeeClient,
  type ShopeeClientOptions,
  type ShopeeTokenStore,
  type ShopeeTokens,
} from './client';
export {
  ACCESS_TOKEN_ERRORS,
  ShopeeAuthError,
  ShopeeError,
  ShopeeNetworkError,
  ShopeeProtocolError,
  ShopeeRateLimitError,
  ShopeeRequestError,
  ShopeeServerError,
  ShopeeSignatureError,
  ShopeeTimeoutError,
  withPassingRetries,
} from './errors';
export { type ManualClock, manualClock, type SandboxClock, systemClock } from './sandbox/clock';
export {
  SANDBOX_DEFAULTS,
  SANDBOX_DEMO_PARTNER,
  SandboxConfigError,
  sandboxOptionsFromEnv,
} from './sandbox/config';
export { DEFAULT_SKUS, type SandboxSku } from './sandbox/generator';
export { MALAYSIAN_STATES } from './sandbox/malaysia';
export {
  DEFAULT_SHOP_RATE_LIMIT,
  type SandboxFailure,
  type SandboxFailureKind,
  type SandboxPartner,
  type SandboxRateLimit,
  type SandboxRequestRecord,
  type SandboxShopInfo,
  type SandboxStock,
  type ShopeeSandbox,
  type ShopeeSandboxOptions,
  startShopeeSandbox,
} from './sandbox/server';
export {
  jsonFileStore,
  memoryStore,
  type SandboxAddOnDeal,
  type SandboxDiscount,
  type SandboxStore,
} from './sandbox/state';
export * from './schemas';
export { shopeeSign, signatureBaseString, TIMESTAMP_WINDOW_SECONDS } from './signing';
