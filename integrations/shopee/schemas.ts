import { z } from 'zod';

/**
 * The Shopee Open Platform v2 calls Kedai uses, as zod schemas: one shape per request and per answer, shared by
 * the client (which validates what it sends and parses what it gets) and the sandbox (which validates what it
 * receives and types what it answers). Names are the platform's own (snake_case), so a field reads as in
 * Shopee's documentation. Answers keep only the fields listed here (zod strips the rest), so a field Shopee adds
 * later does not break a parse.
 */

// ---- paths ----

export const SHOPEE_PATHS = {
  authPartner: '/api/v2/shop/auth_partner',
  tokenGet: '/api/v2/auth/token/get',
  accessTokenGet: '/api/v2/auth/access_token/get',
  shopInfo: '/api/v2/shop/get_shop_info',
  orderList: '/api/v2/order/get_order_list',
  orderDetail: '/api/v2/order/get_order_detail',
  cancelOrder: '/api/v2/order/cancel_order',
  shippingParameter: '/api/v2/logistics/get_shipping_parameter',
  shipOrder: '/api/v2/logistics/ship_order',
  trackingNumber: '/api/v2/logistics/get_tracking_number',
  createShippingDocument: '/api/v2/logistics/create_shipping_document',
  shippingDocumentResult: '/api/v2/logistics/get_shipping_document_result',
  downloadShippingDocument: '/api/v2/logistics/download_shipping_document',
  itemList: '/api/v2/product/get_item_list',
  itemBaseInfo: '/api/v2/product/get_item_base_info',
  modelList: '/api/v2/product/get_model_list',
  addItem: '/api/v2/product/add_item',
  updateItem: '/api/v2/product/update_item',
  initTierVariation: '/api/v2/product/init_tier_variation',
  updatePrice: '/api/v2/product/update_price',
  updateStock: '/api/v2/product/update_stock',
  unlistItem: '/api/v2/product/unlist_item',
  deleteItem: '/api/v2/product/delete_item',
  searchItem: '/api/v2/product/search_item',
  getCategory: '/api/v2/product/get_category',
  getAttributeTree: '/api/v2/product/get_attribute_tree',
  getBrandList: '/api/v2/product/get_brand_list',
  uploadImage: '/api/v2/media_space/upload_image',
  addDiscount: '/api/v2/discount/add_discount',
  addDiscountItem: '/api/v2/discount/add_discount_item',
  endDiscount: '/api/v2/discount/end_discount',
  deleteDiscount: '/api/v2/discount/delete_discount',
  addAddOnDeal: '/api/v2/add_on_deal/add_add_on_deal',
  addAddOnDealMainItem: '/api/v2/add_on_deal/add_add_on_deal_main_item',
  addAddOnDealSubItem: '/api/v2/add_on_deal/add_add_on_deal_sub_item',
  endAddOnDeal: '/api/v2/add_on_deal/end_add_on_deal',
  deleteAddOnDeal: '/api/v2/add_on_deal/delete_add_on_deal',
} as const;

/** The documented hosts. `testStable` is the older name of the sandbox domain; both still answer. */
export const SHOPEE_HOSTS = {
  production: 'https://partner.shopeemobile.com',
  productionCn: 'https://openplatform.shopee.cn',
  sandbox: 'https://openplatform.sandbox.test-stable.shopee.sg',
  testStable: 'https://partner.test-stable.shopeemobile.com',
} as const;

// ---- limits ----

export const SHOPEE_LIMITS = {
  /** get_order_list: time_to − time_from. */
  orderListRangeSeconds: 15 * 24 * 60 * 60,
  orderListPageSize: 100,
  /** get_order_detail: order_sn_list. */
  orderDetailBatch: 50,
  /** create / result / download shipping document: order_list. */
  shippingDocumentBatch: 50,
  /** An access token lives 4 hours, a refresh token 30 days, an authorisation code 10 minutes. */
  accessTokenSeconds: 4 * 60 * 60,
  refreshTokenSeconds: 30 * 24 * 60 * 60,
  authCodeSeconds: 10 * 60,
  /** get_item_list: page_size. */
  itemListPageSize: 100,
  /** get_item_base_info: item_id_list; unlist_item: item_list. */
  itemBatch: 50,
  /** update_stock: stock_list, update_price: price_list, init_tier_variation: model (one item a call). */
  modelBatch: 50,
  /** Two tiers of variations at most. */
  tiers: 2,
  /** add_discount: the start at least an hour ahead, the end an hour after it, under 180 days long. */
  discountLeadSeconds: 60 * 60,
  discountMaxSeconds: 180 * 24 * 60 * 60,
  /** add_discount_item: item_list. */
  discountItemBatch: 50,
  /** get_attribute_tree: category_id_list. */
  attributeTreeCategories: 20,
  /** get_brand_list and search_item: page_size. */
  brandListPageSize: 100,
  searchItemPageSize: 100,
} as const;

// ---- values ----

export const ORDER_STATUSES = [
  'UNPAID',
  'READY_TO_SHIP',
  'PROCESSED',
  'RETRY_SHIP',
  'SHIPPED',
  'TO_CONFIRM_RECEIVE',
  'IN_CANCEL',
  'CANCELLED',
  'TO_RETURN',
  'COMPLETED',
  'INVOICE_PENDING',
] as const;
export type ShopeeOrderStatus = (typeof ORDER_STATUSES)[number];

export const LOGISTICS_STATUSES = [
  'LOGISTICS_NOT_START',
  'LOGISTICS_READY',
  'LOGISTICS_REQUEST_CREATED',
  'LOGISTICS_PICKUP_DONE',
  'LOGISTICS_PICKUP_RETRY',
  'LOGISTICS_PICKUP_FAILED',
  'LOGISTICS_DELIVERY_DONE',
  'LOGISTICS_DELIVERY_FAILED',
  'LOGISTICS_REQUEST_CANCELED',
  'LOGISTICS_COD_REJECTED',
  'LOGISTICS_READY_TO_RETURN',
  'LOGISTICS_INVALID',
  'LOGISTICS_LOST',
  'LOGISTICS_PENDING_ARRANGE',
] as const;

export const SHIPPING_DOCUMENT_TYPES = [
  'NORMAL_AIR_WAYBILL',
  'THERMAL_AIR_WAYBILL',
  'NORMAL_JOB_AIR_WAYBILL',
  'THERMAL_JOB_AIR_WAYBILL',
] as const;
export type ShippingDocumentType = (typeof SHIPPING_DOCUMENT_TYPES)[number];

/** get_order_detail's `response_optional_fields`: without them an order carries only its base fields. */
export const ORDER_DETAIL_OPTIONAL_FIELDS = [
  'buyer_user_id',
  'buyer_username',
  'estimated_shipping_fee',
  'recipient_address',
  'actual_shipping_fee',
  'goods_to_declare',
  'note',
  'note_update_time',
  'item_list',
  'pay_time',
  'dropshipper',
  'dropshipper_phone',
  'split_up',
  'buyer_cancel_reason',
  'cancel_by',
  'cancel_reason',
  'actual_shipping_fee_confirmed',
  'fulfillment_flag',
  'pickup_done_time',
  'package_list',
  'shipping_carrier',
  'payment_method',
  'total_amount',
  'checkout_shipping_carrier',
  'reverse_shipping_fee',
  'order_chargeable_weight_gram',
] as const;
export type OrderDetailField = (typeof ORDER_DETAIL_OPTIONAL_FIELDS)[number];

// ---- the envelope ----

/** Every answer: `error` empty on success, a code otherwise; `response` holds the data of most calls. */
export const envelopeSchema = z.object({
  request_id: z.string().optional(),
  error: z.string().optional(),
  message: z.string().optional(),
  warning: z.unknown().optional(),
  response: z.unknown().optional(),
});
export type ShopeeEnvelope = z.infer<typeof envelopeSchema>;

// ---- auth ----

const shopId = z.number().int().positive();

export const tokenGetRequest = z.object({
  code: z.string().min(1).max(128),
  shop_id: shopId,
  partner_id: z.number().int().positive(),
});

/** auth/token/get answers at the top level (no `response` object). */
export const tokenGetAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expire_in: z.number().int(),
  shop_id_list: z.array(z.number()).optional(),
  merchant_id_list: z.array(z.number()).optional(),
});
export type ShopeeTokenGrant = z.infer<typeof tokenGetAnswer>;

export const accessTokenGetRequest = z.object({
  refresh_token: z.string().min(1).max(128),
  shop_id: shopId,
  partner_id: z.number().int().positive(),
});

export const accessTokenGetAnswer = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().min(1),
  expire_in: z.number().int(),
  partner_id: z.number().int().optional(),
  shop_id: z.number().int().optional(),
});
export type ShopeeTokenRefresh = z.infer<typeof accessTokenGetAnswer>;

// ---- shop ----

/** shop/get_shop_info answers at the top level too. */
export const shopInfoAnswer = z.object({
  shop_name: z.string(),
  region: z.string(),
  status: z.string(),
  is_cb: z.boolean().optional(),
  auth_time: z.number().int().optional(),
  expire_time: z.number().int().optional(),
});
export type ShopeeShopInfo = z.infer<typeof shopInfoAnswer>;

// ---- orders ----

export const orderListRequest = z
  .object({
    time_range_field: z.enum(['create_time', 'update_time']),
    time_from: z.number().int().nonnegative(),
    time_to: z.number().int().nonnegative(),
    page_size: z.number().int().min(1).max(SHOPEE_LIMITS.orderListPageSize),
    cursor: z.string().max(512).optional(),
    order_status: z.enum(ORDER_STATUSES).optional(),
    response_optional_fields: z.array(z.literal('order_status')).optional(),
  })
  .refine((q) => q.time_from <= q.time_to, {
    message: 'time_from must not be later than time_to',
    path: ['time_from'],
  })
  .refine((q) => q.time_to - q.time_from <= SHOPEE_LIMITS.orderListRangeSeconds, {
    message: 'time_to - time_from must be 15 days at most',
    path: ['time_to'],
  });
export type OrderListRequest = z.input<typeof orderListRequest>;

export const orderListAnswer = z.object({
  more: z.boolean(),
  next_cursor: z.string(),
  order_list: z.array(
    z.object({
      order_sn: z.string(),
      order_status: z.enum(ORDER_STATUSES).optional(),
    }),
  ),
});
export type OrderListPage = z.infer<typeof orderListAnswer>;

export const orderDetailRequest = z.object({
  order_sn_list: z.array(z.string().min(1).max(64)).min(1).max(SHOPEE_LIMITS.orderDetailBatch),
  response_optional_fields: z.array(z.enum(ORDER_DETAIL_OPTIONAL_FIELDS)).optional(),
});
export type OrderDetailRequest = z.input<typeof orderDetailRequest>;

export const recipientAddressSchema = z.object({
  name: z.string(),
  phone: z.string(),
  town: z.string(),
  district: z.string(),
  city: z.string(),
  state: z.string(),
  region: z.string(),
  zipcode: z.string(),
  full_address: z.string(),
});
export type ShopeeRecipientAddress = z.infer<typeof recipientAddressSchema>;

export const orderItemSchema = z.object({
  item_id: z.number().int(),
  item_name: z.string(),
  item_sku: z.string(),
  model_id: z.number().int(),
  model_name: z.string(),
  model_sku: z.string(),
  model_quantity_purchased: z.number().int(),
  model_original_price: z.number(),
  model_discounted_price: z.number(),
  wholesale: z.boolean().optional(),
  weight: z.number().optional(),
  add_on_deal: z.boolean().optional(),
  main_item: z.boolean().optional(),
  add_on_deal_id: z.number().int().optional(),
  promotion_type: z.string().optional(),
  promotion_id: z.number().int().optional(),
  order_item_id: z.number().int().optional(),
  promotion_group_id: z.number().int().optional(),
  image_info: z.object({ image_url: z.string() }).optional(),
});
export type ShopeeOrderItem = z.infer<typeof orderItemSchema>;

export const packageSchema = z.object({
  package_number: z.string(),
  logistics_status: z.enum(LOGISTICS_STATUSES),
  shipping_carrier: z.string(),
  item_list: z.array(
    z.object({
      item_id: z.number().int(),
      model_id: z.number().int(),
      model_quantity: z.number().int().optional(),
      order_item_id: z.number().int().optional(),
      promotion_group_id: z.number().int().optional(),
    }),
  ),
});
export type ShopeePackage = z.infer<typeof packageSchema>;

/** One order of get_order_detail: base fields always, the optional ones when asked for. */
export const orderDetailSchema = z.object({
  order_sn: z.string(),
  region: z.string(),
  currency: z.string(),
  cod: z.boolean(),
  order_status: z.enum(ORDER_STATUSES),
  create_time: z.number().int(),
  update_time: z.number().int(),
  days_to_ship: z.number().int(),
  ship_by_date: z.number().int(),
  message_to_seller: z.string(),
  booking_sn: z.string().optional(),
  // optional fields
  buyer_user_id: z.number().int().optional(),
  buyer_username: z.string().optional(),
  estimated_shipping_fee: z.number().optional(),
  recipient_address: recipientAddressSchema.optional(),
  actual_shipping_fee: z.number().optional(),
  goods_to_declare: z.boolean().optional(),
  note: z.string().optional(),
  note_update_time: z.number().int().optional(),
  item_list: z.array(orderItemSchema).optional(),
  /** Absent (or 0) while unpaid, and for cash on delivery until the buyer pays the courier. */
  pay_time: z.number().int().optional(),
  dropshipper: z.string().optional(),
  dropshipper_phone: z.string().optional(),
  split_up: z.boolean().optional(),
  buyer_cancel_reason: z.string().optional(),
  cancel_by: z.string().optional(),
  cancel_reason: z.string().optional(),
  actual_shipping_fee_confirmed: z.boolean().optional(),
  fulfillment_flag: z.string().optional(),
  pickup_done_time: z.number().int().optional(),
  package_list: z.array(packageSchema).optional(),
  shipping_carrier: z.string().optional(),
  payment_method: z.string().optional(),
  total_amount: z.number().optional(),
  checkout_shipping_carrier: z.string().optional(),
  reverse_shipping_fee: z.number().optional(),
  order_chargeable_weight_gram: z.number().int().optional(),
});
export type ShopeeOrder = z.infer<typeof orderDetailSchema>;

export const orderDetailAnswer = z.object({ order_list: z.array(orderDetailSchema) });
export type OrderDetailPage = z.infer<typeof orderDetailAnswer>;

/** The reasons a seller may give Shopee for cancelling (out of stock names the items). */
export const SHOPEE_CANCEL_REASONS = ['OUT_OF_STOCK', 'UNDELIVERABLE_AREA', 'COD_NOT_SUPPORTED'] as const;

export const cancelOrderRequest = z
  .object({
    order_sn: z.string().min(1).max(64),
    cancel_reason: z.enum(SHOPEE_CANCEL_REASONS),
    item_list: z
      .array(z.object({ item_id: z.number().int().positive(), model_id: z.number().int().nonnegative() }))
      .max(100)
      .optional(),
  })
  .refine((request) => request.cancel_reason !== 'OUT_OF_STOCK' || (request.item_list?.length ?? 0) > 0, {
    message: 'item_list is required when cancel_reason is OUT_OF_STOCK',
    path: ['item_list'],
  });
export type CancelOrderRequest = z.input<typeof cancelOrderRequest>;
export const cancelOrderAnswer = z.object({ update_time: z.number().int() });

// ---- logistics ----

const orderSn = z.string().min(1).max(64);
const packageNumber = z.string().max(64).optional();

export const shippingParameterRequest = z.object({ order_sn: orderSn, package_number: packageNumber });
export type ShippingParameterRequest = z.input<typeof shippingParameterRequest>;

export const shippingParameterAnswer = z.object({
  info_needed: z.object({
    dropoff: z.array(z.string()).nullish(),
    pickup: z.array(z.string()).nullish(),
    non_integrated: z.array(z.string()).nullish(),
  }),
  dropoff: z
    .object({
      branch_list: z
        .array(
          z.object({
            branch_id: z.number().int(),
            region: z.string(),
            state: z.string(),
            city: z.string(),
            address: z.string(),
            zipcode: z.string(),
            district: z.string(),
            town: z.string(),
          }),
        )
        .nullish(),
    })
    .nullish(),
  pickup: z
    .object({
      address_list: z.array(
        z.object({
          address_id: z.number().int(),
          region: z.string(),
          state: z.string(),
          city: z.string(),
          district: z.string(),
          town: z.string(),
          address: z.string(),
          zipcode: z.string(),
          address_flag: z.array(z.string()),
          time_slot_list: z.array(
            z.object({
              date: z.number().int(),
              time_text: z.string().optional(),
              pickup_time_id: z.string(),
            }),
          ),
        }),
      ),
    })
    .nullish(),
});
export type ShippingParameter = z.infer<typeof shippingParameterAnswer>;

export const shipOrderRequest = z.object({
  order_sn: orderSn,
  package_number: packageNumber,
  pickup: z
    .object({
      address_id: z.number().int(),
      pickup_time_id: z.string().max(64).optional(),
      tracking_number: z.string().max(64).optional(),
    })
    .optional(),
  dropoff: z
    .object({
      branch_id: z.number().int().optional(),
      sender_real_name: z.string().max(128).optional(),
      tracking_number: z.string().max(64).optional(),
      slug: z.string().max(64).optional(),
    })
    .optional(),
  non_integrated: z.object({ tracking_number: z.string().min(1).max(64) }).optional(),
});
export type ShipOrderRequest = z.input<typeof shipOrderRequest>;

export const trackingNumberRequest = z.object({
  order_sn: orderSn,
  package_number: packageNumber,
  response_optional_fields: z
    .array(z.enum(['plp_number', 'first_mile_tracking_number', 'last_mile_tracking_number']))
    .optional(),
});
export type TrackingNumberRequest = z.input<typeof trackingNumberRequest>;

export const trackingNumberAnswer = z.object({
  /** Empty until the carrier has assigned one (then `hint` says why). */
  tracking_number: z.string(),
  plp_number: z.string().optional(),
  first_mile_tracking_number: z.string().optional(),
  last_mile_tracking_number: z.string().optional(),
  hint: z.string().optional(),
});
export type TrackingNumber = z.infer<typeof trackingNumberAnswer>;

const documentOrder = z.object({
  order_sn: orderSn,
  package_number: packageNumber,
  tracking_number: z.string().max(64).optional(),
  shipping_document_type: z.enum(SHIPPING_DOCUMENT_TYPES).optional(),
});

export const createShippingDocumentRequest = z.object({
  order_list: z.array(documentOrder).min(1).max(SHOPEE_LIMITS.shippingDocumentBatch),
});
export type CreateShippingDocumentRequest = z.input<typeof createShippingDocumentRequest>;

const documentFailure = {
  fail_error: z.string().optional(),
  fail_message: z.string().optional(),
};

export const createShippingDocumentAnswer = z.object({
  result_list: z.array(
    z.object({ order_sn: z.string(), package_number: z.string().optional(), ...documentFailure }),
  ),
});
export type CreateShippingDocumentResult = z.infer<typeof createShippingDocumentAnswer>;

export const shippingDocumentResultRequest = z.object({
  order_list: z
    .array(documentOrder.omit({ tracking_number: true }))
    .min(1)
    .max(SHOPEE_LIMITS.shippingDocumentBatch),
});
export type ShippingDocumentResultRequest = z.input<typeof shippingDocumentResultRequest>;

export const shippingDocumentResultAnswer = z.object({
  result_list: z.array(
    z.object({
      order_sn: z.string(),
      package_number: z.string().optional(),
      status: z.enum(['READY', 'FAILED', 'PROCESSING']),
      ...documentFailure,
    }),
  ),
});
export type ShippingDocumentResult = z.infer<typeof shippingDocumentResultAnswer>;

export const downloadShippingDocumentRequest = z.object({
  shipping_document_type: z.enum(SHIPPING_DOCUMENT_TYPES).optional(),
  order_list: z
    .array(z.object({ order_sn: orderSn, package_number: packageNumber }))
    .min(1)
    .max(SHOPEE_LIMITS.shippingDocumentBatch),
});
export type DownloadShippingDocumentRequest = z.input<typeof downloadShippingDocumentRequest>;

// ---- products ----

/** get_item_list's item_status: every one but the deleted ones is what a seller's listings are. */
export const ITEM_STATUSES = [
  'NORMAL',
  'BANNED',
  'UNLIST',
  'REVIEWING',
  'SELLER_DELETE',
  'SHOPEE_DELETE',
] as const;
export type ShopeeItemStatus = (typeof ITEM_STATUSES)[number];

/** A list Shopee may leave out (or send as null) when it is empty. */
const answerList = <T extends z.ZodType>(entry: T) =>
  z
    .array(entry)
    .nullish()
    .transform((list) => list ?? []);

const itemId = z.number().int().positive();
/** 0 for an item without models. */
const modelId = z.number().int().nonnegative();
const price = z.number().positive();
const stock = z.number().int().nonnegative();
/** seller_stock: `location_id` only for a shop with several warehouses. */
const sellerStock = z.array(z.object({ location_id: z.string().optional(), stock })).min(1);
const dimension = z.object({
  package_length: z.number().int().positive(),
  package_width: z.number().int().positive(),
  package_height: z.number().int().positive(),
});

export const itemListRequest = z.object({
  offset: z.number().int().nonnegative(),
  page_size: z.number().int().min(1).max(SHOPEE_LIMITS.itemListPageSize),
  update_time_from: z.number().int().nonnegative().optional(),
  update_time_to: z.number().int().nonnegative().optional(),
  /** Sent as repeated parameters (item_status=NORMAL&item_status=UNLIST). */
  item_status: z.array(z.enum(ITEM_STATUSES)).min(1),
});
export type ItemListRequest = z.input<typeof itemListRequest>;

export const itemListAnswer = z.object({
  item: answerList(
    z.object({ item_id: z.number().int(), item_status: z.enum(ITEM_STATUSES), update_time: z.number() }),
  ),
  total_count: z.number().int(),
  has_next_page: z.boolean(),
  next_offset: z.number().int(),
});
export type ItemListPage = z.infer<typeof itemListAnswer>;

export const itemBaseInfoRequest = z.object({
  item_id_list: z.array(itemId).min(1).max(SHOPEE_LIMITS.itemBatch),
});
export type ItemBaseInfoRequest = z.input<typeof itemBaseInfoRequest>;

const priceInfo = z.object({
  currency: z.string().optional(),
  original_price: z.number(),
  current_price: z.number(),
});

const stockInfoV2 = z.object({
  summary_info: z
    .object({ total_reserved_stock: z.number().int(), total_available_stock: z.number().int() })
    .optional(),
  seller_stock: z.array(z.object({ location_id: z.string().optional(), stock: z.number().int() })).optional(),
});

export const itemBaseInfoSchema = z.object({
  item_id: z.number().int(),
  category_id: z.number().int(),
  item_name: z.string(),
  description: z.string().optional(),
  item_sku: z.string().optional(),
  create_time: z.number().int(),
  update_time: z.number().int(),
  /** Absent when the item has models: their prices are in get_model_list. */
  price_info: z.array(priceInfo).optional(),
  stock_info_v2: stockInfoV2.optional(),
  image: z.object({ image_url_list: z.array(z.string()), image_id_list: z.array(z.string()) }).optional(),
  /** KG, as a string ("10.02"). */
  weight: z.string().optional(),
  dimension: dimension.optional(),
  logistic_info: z
    .array(
      z.object({ logistic_id: z.number().int(), logistic_name: z.string().optional(), enabled: z.boolean() }),
    )
    .optional(),
  condition: z.enum(['NEW', 'USED']).optional(),
  item_status: z.enum(ITEM_STATUSES),
  has_model: z.boolean(),
  brand: z.object({ brand_id: z.number().int(), original_brand_name: z.string() }).optional(),
});
export type ShopeeItemBaseInfo = z.infer<typeof itemBaseInfoSchema>;

export const itemBaseInfoAnswer = z.object({
  item_list: answerList(itemBaseInfoSchema),
});

export const modelListRequest = z.object({ item_id: itemId });

const tierVariationAnswer = z.object({
  name: z.string(),
  option_list: z.array(
    z.object({
      option: z.string(),
      image: z.object({ image_id: z.string().optional(), image_url: z.string().optional() }).optional(),
    }),
  ),
});

export const modelSchema = z.object({
  model_id: z.number().int(),
  tier_index: z.array(z.number().int()),
  model_sku: z.string().optional(),
  model_status: z.string().optional(),
  price_info: z.array(priceInfo),
  stock_info_v2: stockInfoV2.optional(),
});
export type ShopeeModel = z.infer<typeof modelSchema>;

export const modelListAnswer = z.object({
  tier_variation: z.array(tierVariationAnswer),
  model: z.array(modelSchema),
});
export type ModelList = z.infer<typeof modelListAnswer>;

/** add_item and update_item: the item's own fields (update_item sends the ones that change, with item_id). */
const itemFields = {
  item_name: z.string().min(1).max(255),
  description: z.string().min(1).max(5000),
  category_id: z.number().int().positive(),
  /** KG. */
  weight: z.number().positive(),
  dimension: dimension.optional(),
  image: z.object({ image_id_list: z.array(z.string().min(1)).min(1).max(9) }),
  logistic_info: z.array(z.object({ logistic_id: z.number().int().positive(), enabled: z.boolean() })).min(1),
  item_sku: z.string().max(100).optional(),
  condition: z.enum(['NEW', 'USED']).optional(),
  item_status: z.enum(['NORMAL', 'UNLIST']).optional(),
  brand: z.object({ brand_id: z.number().int().nonnegative(), original_brand_name: z.string() }).optional(),
  gtin_code: z.string().max(14).optional(),
  /** The category's attributes (every mandatory one); a value id 0 carries a value of the seller's own. */
  attribute_list: z
    .array(
      z.object({
        attribute_id: z.number().int().positive(),
        attribute_value_list: z
          .array(
            z.object({
              value_id: z.number().int().nonnegative(),
              original_value_name: z.string().optional(),
              value_unit: z.string().optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
};

export const addItemRequest = z.object({
  ...itemFields,
  original_price: price,
  seller_stock: sellerStock,
});
export type AddItemRequest = z.input<typeof addItemRequest>;

export const addItemAnswer = z.object({ item_id: z.number().int() });

export const updateItemRequest = z
  .object({ item_id: itemId, ...itemFields })
  .partial()
  .required({ item_id: true });
export type UpdateItemRequest = z.input<typeof updateItemRequest>;

export const updateItemAnswer = z.object({ item_id: z.number().int() });

/** init_tier_variation: the item's tiers and all its models (at most 50), replacing what it had. */
export const initTierVariationRequest = z.object({
  item_id: itemId,
  tier_variation: z
    .array(
      z.object({
        name: z.string().min(1).max(14),
        option_list: z
          .array(
            z.object({
              option: z.string().min(1).max(30),
              image: z.object({ image_id: z.string() }).optional(),
            }),
          )
          .min(1)
          .max(20),
      }),
    )
    .min(1)
    .max(SHOPEE_LIMITS.tiers),
  model: z
    .array(
      z.object({
        tier_index: z.array(z.number().int().nonnegative()).min(1).max(SHOPEE_LIMITS.tiers),
        original_price: price,
        model_sku: z.string().max(100).optional(),
        seller_stock: sellerStock,
        gtin_code: z.string().max(14).optional(),
      }),
    )
    .min(1)
    .max(SHOPEE_LIMITS.modelBatch),
});
export type InitTierVariationRequest = z.input<typeof initTierVariationRequest>;

export const initTierVariationAnswer = z.object({
  item_id: z.number().int(),
  model: z.array(
    z.object({
      tier_index: z.array(z.number().int()),
      model_id: z.number().int(),
      model_sku: z.string().optional(),
    }),
  ),
});
export type InitTierVariationResult = z.infer<typeof initTierVariationAnswer>;

const failureList = answerList(z.object({ model_id: z.number().int(), failed_reason: z.string() }));

export const updatePriceRequest = z.object({
  item_id: itemId,
  price_list: z
    .array(z.object({ model_id: modelId.optional(), original_price: price }))
    .min(1)
    .max(SHOPEE_LIMITS.modelBatch),
});
export type UpdatePriceRequest = z.input<typeof updatePriceRequest>;

export const updatePriceAnswer = z.object({
  failure_list: failureList,
  success_list: answerList(z.object({ model_id: z.number().int(), original_price: z.number() })),
});
export type UpdatePriceResult = z.infer<typeof updatePriceAnswer>;

export const updateStockRequest = z.object({
  item_id: itemId,
  stock_list: z
    .array(z.object({ model_id: modelId.optional(), seller_stock: sellerStock }))
    .min(1)
    .max(SHOPEE_LIMITS.modelBatch),
});
export type UpdateStockRequest = z.input<typeof updateStockRequest>;

export const updateStockAnswer = z.object({
  failure_list: failureList,
  success_list: answerList(
    z.object({ model_id: z.number().int(), location_id: z.string().optional(), stock: z.number().int() }),
  ),
});
export type UpdateStockResult = z.infer<typeof updateStockAnswer>;

export const unlistItemRequest = z.object({
  item_list: z
    .array(z.object({ item_id: itemId, unlist: z.boolean() }))
    .min(1)
    .max(SHOPEE_LIMITS.itemBatch),
});
export type UnlistItemRequest = z.input<typeof unlistItemRequest>;

export const unlistItemAnswer = z.object({
  failure_list: answerList(z.object({ item_id: z.number().int(), failed_reason: z.string() })),
  success_list: answerList(z.object({ item_id: z.number().int(), unlist: z.boolean() })),
});
export type UnlistItemResult = z.infer<typeof unlistItemAnswer>;

export const deleteItemRequest = z.object({ item_id: itemId });

/**
 * search_item: item ids by seller SKU (a keyword: an item whose SKU contains it matches, so callers compare the
 * SKUs they read back), by name or by missing attributes; `offset` is an opaque cursor (next_offset).
 */
export const searchItemRequest = z.object({
  offset: z.string().max(100).optional(),
  page_size: z.number().int().min(1).max(SHOPEE_LIMITS.searchItemPageSize),
  item_name: z.string().max(255).optional(),
  item_sku: z.string().max(100).optional(),
  attribute_status: z.union([z.literal(1), z.literal(2)]).optional(),
  /** Sent as repeated parameters, as get_item_list's. */
  item_status: z.array(z.enum(ITEM_STATUSES)).optional(),
});
export type SearchItemRequest = z.input<typeof searchItemRequest>;

export const searchItemAnswer = z.object({
  item_id_list: answerList(z.number().int()),
  total_count: z.number().int(),
  next_offset: z.string().optional(),
});
export type SearchItemResult = z.infer<typeof searchItemAnswer>;

/** get_category: the shop's whole category tree, flat; only a leaf (has_children false) takes items. */
export const categoryRequest = z.object({ language: z.string().max(20).optional() });

export const shopeeCategorySchema = z.object({
  category_id: z.number().int(),
  /** 0 for a first-level category. */
  parent_category_id: z.number().int(),
  original_category_name: z.string(),
  display_category_name: z.string(),
  has_children: z.boolean(),
});
export type ShopeeCategory = z.infer<typeof shopeeCategorySchema>;

export const categoryAnswer = z.object({ category_list: answerList(shopeeCategorySchema) });

/** get_attribute_tree's input types: single or multiple choice, with or without a value of one's own, or text. */
export const ATTRIBUTE_INPUT_TYPES = {
  singleDropDown: 1,
  singleComboBox: 2,
  freeText: 3,
  multiDropDown: 4,
  multiComboBox: 5,
} as const;

export const attributeTreeRequest = z.object({
  category_id_list: z.array(itemId).min(1).max(SHOPEE_LIMITS.attributeTreeCategories),
  language: z.string().max(20).optional(),
});
export type AttributeTreeRequest = z.input<typeof attributeTreeRequest>;

const multiLang = answerList(z.object({ language: z.string(), value: z.string() }));

/** One attribute of a category; a value may open child attributes (the same shape, one level down). */
export interface ShopeeAttribute {
  attribute_id: number;
  mandatory: boolean;
  name: string;
  attribute_value_list: {
    value_id: number;
    name: string;
    value_unit?: string | undefined;
    child_attribute_list: ShopeeAttribute[];
    multi_lang: { language: string; value: string }[];
  }[];
  attribute_info: {
    input_type: number;
    input_validation_type?: number | undefined;
    format_type?: number | undefined;
    date_format_type?: number | undefined;
    attribute_unit_list: string[];
    max_value_count?: number | undefined;
    introduction?: string | undefined;
  };
  multi_lang: { language: string; value: string }[];
}

export const shopeeAttributeSchema: z.ZodType<ShopeeAttribute> = z.lazy(() =>
  z.object({
    attribute_id: z.number().int(),
    mandatory: z.boolean(),
    name: z.string(),
    attribute_value_list: answerList(
      z.object({
        value_id: z.number().int(),
        name: z.string(),
        value_unit: z.string().optional(),
        child_attribute_list: answerList(shopeeAttributeSchema),
        multi_lang: multiLang,
      }),
    ),
    attribute_info: z.object({
      input_type: z.number().int(),
      input_validation_type: z.number().int().optional(),
      format_type: z.number().int().optional(),
      date_format_type: z.number().int().optional(),
      attribute_unit_list: answerList(z.string()),
      max_value_count: z.number().int().optional(),
      introduction: z.string().optional(),
    }),
    multi_lang: multiLang,
  }),
);

export const attributeTreeAnswer = z.object({
  list: answerList(
    z.object({
      category_id: z.number().int(),
      attribute_tree: answerList(shopeeAttributeSchema),
      warning: z.string().optional(),
    }),
  ),
});
export type AttributeTree = z.infer<typeof attributeTreeAnswer>;

/** get_brand_list: a leaf category's brands, a page at a time; `status` 1 the brands Shopee lists, 2 pending. */
export const brandListRequest = z.object({
  offset: z.number().int().nonnegative(),
  page_size: z.number().int().min(1).max(SHOPEE_LIMITS.brandListPageSize),
  category_id: itemId,
  status: z.union([z.literal(1), z.literal(2)]),
  language: z.string().max(20).optional(),
});
export type BrandListRequest = z.input<typeof brandListRequest>;

export const brandListAnswer = z.object({
  brand_list: answerList(
    z.object({
      brand_id: z.number().int(),
      original_brand_name: z.string(),
      display_brand_name: z.string().optional(),
    }),
  ),
  has_next_page: z.boolean(),
  next_offset: z.number().int(),
  is_mandatory: z.boolean(),
  input_type: z.string().optional(),
});
export type BrandListPage = z.infer<typeof brandListAnswer>;

/** media_space/upload_image: the image's id (what add_item takes) and where Shopee serves it. */
export const uploadImageAnswer = z.object({
  image_info: z.object({
    image_id: z.string(),
    image_url_list: z.array(z.object({ image_url_region: z.string(), image_url: z.string() })),
  }),
});
export type UploadedImage = z.infer<typeof uploadImageAnswer>;

// ---- discounts ----

const discountId = z.number().int().positive();

export const addDiscountRequest = z.object({
  discount_name: z.string().min(1).max(150),
  start_time: z.number().int().positive(),
  end_time: z.number().int().positive(),
});
export type AddDiscountRequest = z.input<typeof addDiscountRequest>;
export const addDiscountAnswer = z.object({ discount_id: z.number().int() });

export const addDiscountItemRequest = z.object({
  discount_id: discountId,
  item_list: z
    .array(
      z.object({
        item_id: itemId,
        /** 0: no limit. */
        purchase_limit: z.number().int().nonnegative(),
        /** For an item without models. */
        item_promotion_price: price.optional(),
        item_promotion_stock: stock.optional(),
        model_list: z
          .array(
            z.object({
              model_id: modelId,
              model_promotion_price: price,
              model_promotion_stock: stock.optional(),
            }),
          )
          .optional(),
      }),
    )
    .min(1)
    .max(SHOPEE_LIMITS.discountItemBatch),
});
export type AddDiscountItemRequest = z.input<typeof addDiscountItemRequest>;

export const addDiscountItemAnswer = z.object({
  discount_id: z.number().int(),
  count: z.number().int(),
  error_list: answerList(
    z.object({
      item_id: z.number().int(),
      model_id: z.number().int().optional(),
      fail_message: z.string(),
      fail_error: z.string(),
    }),
  ),
});
export type AddDiscountItemResult = z.infer<typeof addDiscountItemAnswer>;

/** end_discount (an ongoing discount) and delete_discount (an upcoming one). */
export const discountIdRequest = z.object({ discount_id: discountId });
export const discountChangeAnswer = z.object({
  discount_id: z.number().int(),
  modify_time: z.number().int(),
});

// ---- add-on deals ----

/** add_add_on_deal's promotion_type: an add-on discount, or a gift with a minimum spend. */
export const ADD_ON_DEAL_TYPES = { addOnDiscount: 0, giftWithMinSpend: 1 } as const;
/** An add-on deal item's status: enabled 1, disabled 2. */
const addOnItemStatus = z.union([z.literal(1), z.literal(2)]);
const addOnDealId = z.number().int().positive();

export const addAddOnDealRequest = z.object({
  add_on_deal_name: z.string().min(1).max(25),
  start_time: z.number().int().positive(),
  end_time: z.number().int().positive(),
  promotion_type: z.union([z.literal(0), z.literal(1)]),
  purchase_min_spend: z.number().nonnegative().optional(),
  per_gift_num: z.number().int().min(1).max(50).optional(),
  promotion_purchase_limit: z.number().int().min(1).max(100).optional(),
});
export type AddAddOnDealRequest = z.input<typeof addAddOnDealRequest>;
export const addAddOnDealAnswer = z.object({ add_on_deal_id: z.number().int() });

const addOnFailure = { fail_error: z.string().optional(), fail_message: z.string().optional() };

export const addAddOnDealMainItemRequest = z.object({
  add_on_deal_id: addOnDealId,
  main_item_list: z.array(z.object({ item_id: itemId, status: addOnItemStatus })).min(1),
});
export type AddAddOnDealMainItemRequest = z.input<typeof addAddOnDealMainItemRequest>;
/** Each main item back: its status when added, fail_error and fail_message when refused. */
export const addAddOnDealMainItemAnswer = z.object({
  add_on_deal_id: z.number().int(),
  main_item_list: answerList(
    z.object({ item_id: z.number().int(), status: z.number().int().optional(), ...addOnFailure }),
  ),
});

export const addAddOnDealSubItemRequest = z.object({
  add_on_deal_id: addOnDealId,
  sub_item_list: z
    .array(
      z.object({
        item_id: itemId,
        model_id: modelId.optional(),
        status: addOnItemStatus.optional(),
        /** The add-on discount price (none for a gift). */
        sub_item_input_price: z.number().nonnegative().optional(),
        sub_item_limit: z.number().int().positive().optional(),
      }),
    )
    .min(1)
    .max(100),
});
export type AddAddOnDealSubItemRequest = z.input<typeof addAddOnDealSubItemRequest>;
export const addAddOnDealSubItemAnswer = z.object({
  add_on_deal_id: z.number().int(),
  sub_item_list: answerList(
    z.object({
      item_id: z.number().int(),
      model_id: z.number().int().optional(),
      status: z.number().int().optional(),
      ...addOnFailure,
    }),
  ),
});

/** end_add_on_deal (an ongoing deal) and delete_add_on_deal (an upcoming one). */
export const addOnDealIdRequest = z.object({ add_on_deal_id: addOnDealId });
export const addOnDealIdAnswer = z.object({ add_on_deal_id: z.number().int() });
