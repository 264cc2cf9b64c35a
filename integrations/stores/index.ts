/**
 * # Marketplace stores
 *
 * The stores a seller connected and what the order import needs of them:
 * - registry.ts: the `stores` table (status connected / error / disconnected, default warehouse, order check
 *   interval, import checkpoint, last import, last error) and the import's bookkeeping on it;
 * - tokens.ts: `StoreTokenStore`, a store's Shopee tokens in `store_tokens` (sealed: token-seal.ts) with an
 *   advisory-lock `lock`;
 * - connect-state.ts: the signed `state` that binds a marketplace's callback to the account that started it;
 * - shopee-orders.ts: a Shopee order (get_order_detail) → the MarketplaceOrder the order import takes;
 * - shopee.ts: the Shopee client of a store, and what a failure means for the store;
 * - settings.ts: this process's Shopee connection (host, partner), state secret and import retries;
 * - sandbox.ts: the sandbox shop `npm start` runs;
 * - shipping.ts: arranging an order's shipment (pickup, drop-off) with its marketplace, for its tracking number.
 *
 * Connecting a store (api/stores) and importing its orders (workflows/order-import.workflow.ts) use these.
 */

export { CONNECT_STATE_TTL_MS, checkConnectState, signConnectState } from './connect-state';
export {
  CONNECTABLE_PLATFORMS,
  type ConnectablePlatform,
  connectStore,
  countLinkedStores,
  disconnectStore,
  findStore,
  findStoreByShop,
  IMPORT_INTERVAL,
  isConnectablePlatform,
  listStores,
  STORE_ERROR_KINDS,
  type Store,
  type StoreChanges,
  type StoreError,
  type StoreErrorKind,
  type StoreStatus,
  updateStore,
} from './registry';
export {
  DEFAULT_IMPORT_RETRY,
  type ImportRetry,
  type ShopeeConnection,
  type StoreSettings,
  setStoreSettings,
  settingsFromConfig,
  storeSettings,
  tokenKeyOf,
} from './settings';
export {
  type ArrangedShipment,
  arrangeShopeeShipment,
  cancelShopeeOrder,
  type MarketplaceShipping,
  marketplaceItemOf,
  type PickupAddress,
  type PickupDay,
  type PickupTime,
  pickSlot,
  SELLER_CANCEL_REASONS,
  type SellerCancelReason,
  type ShipmentMethod,
  ShippingError,
  type ShippingFailureKind,
  type ShippingOptions,
  type ShippingOrder,
  storesShipping,
} from './shipping';
export { classifyStoreError, shopeeClient, shopeeClientForStore } from './shopee';
export { OrderTranslationError, SHOPEE_STATUS_MAP, shopeeToMarketplaceOrder } from './shopee-orders';
export { StoreTokenStore } from './tokens';
