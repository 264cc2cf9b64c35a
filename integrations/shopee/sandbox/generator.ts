import type { ShopeeOrder, ShopeeOrderItem } from '../schemas';
import { malaysianBuyer } from './malaysia';
import { hashString, SeededRandom } from './random';
import type {
  PlannedChange,
  SandboxAddress,
  SandboxItem,
  SandboxOrder,
  SandboxProduct,
  SandboxShop,
} from './state';

/**
 * New orders as a Malaysian Shopee shop receives them: one to three lines of the seller's SKUs, mostly one of
 * each, prices in MYR with the odd discount, a buyer somewhere in Malaysia, a carrier, and either cash on delivery
 * (30%, ready to ship at once) or online payment (created UNPAID, paid minutes later, or never and then cancelled).
 * A few buyers cancel before the seller ships, some through a cancellation request (IN_CANCEL) first.
 * Every choice, the order's future status changes included, is drawn from the shop's seeded generator when the
 * order is made, so a seed gives the same orders whenever they are asked for.
 */

/** A SKU the generator sells: the seller's master code, and optionally how it reads on Shopee. */
export interface SandboxSku {
  /** The seller's code: the line's model_sku when `variation` is given, its item_sku otherwise. */
  sku: string;
  name?: string;
  /** A variation ("Black, M"): the line then has a model, and `parentSku` (if any) is its item_sku. */
  variation?: string;
  parentSku?: string;
  /** MYR. */
  price?: number;
  /** kg. */
  weight?: number;
}

export const DEFAULT_SKUS: readonly SandboxSku[] = [
  {
    sku: 'TSHIRT-BLK-M',
    parentSku: 'TSHIRT',
    name: 'Basic Cotton T-Shirt',
    variation: 'Black, M',
    price: 29.9,
    weight: 0.2,
  },
  {
    sku: 'TSHIRT-WHT-L',
    parentSku: 'TSHIRT',
    name: 'Basic Cotton T-Shirt',
    variation: 'White, L',
    price: 29.9,
    weight: 0.2,
  },
  { sku: 'TUDUNG-BAWAL-01', name: 'Tudung Bawal Premium Cotton Voile', price: 19.9, weight: 0.1 },
  { sku: 'KOPI-PUTIH-15S', name: 'Kopi Putih Ipoh 3 in 1 (15 sachets)', price: 12.5, weight: 0.6 },
  { sku: 'SAMBAL-250G', name: 'Sambal Nyet Berapi 250g', price: 16.9, weight: 0.3 },
  { sku: 'CASE-IP15-CLR', name: 'iPhone 15 Clear Silicone Case', price: 15, weight: 0.05 },
  { sku: 'CABLE-USBC-1M', name: 'USB-C Fast Charging Cable 1m', price: 9.9, weight: 0.05 },
  {
    sku: 'KURUNG-MODEN-S',
    parentSku: 'KURUNG-MODEN',
    name: 'Baju Kurung Moden',
    variation: 'Saiz S',
    price: 89,
    weight: 0.5,
  },
  { sku: 'TART-NENAS-50', name: 'Tart Nenas Gulung (50 pcs)', price: 28, weight: 0.7 },
  { sku: 'SERUM-VITC-30', name: 'Vitamin C Brightening Serum 30ml', price: 39.9, weight: 0.1 },
];

const round2 = (value: number) => Math.round(value * 100) / 100;
/** Unix seconds for a sandbox instant, rounded up: a change is never stamped before it happens. */
export const stampSeconds = (ms: number) => Math.ceil(ms / 1000);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Malaysia Time (UTC+8), for order numbers, pickup days and printed dates. */
export const MYT_OFFSET_MS = 8 * HOUR;

/** The sandbox's products for the SKUs it was given: stable ids per SKU, names and prices where none were given. */
export function toProducts(skus: readonly (string | SandboxSku)[]): SandboxProduct[] {
  return skus.map((entry) => {
    const sku = typeof entry === 'string' ? { sku: entry } : entry;
    const hash = hashString(sku.sku);
    const random = new SeededRandom(hash);
    const price = sku.price ?? round2(random.int(5, 150) - 0.1);
    const itemKey = sku.variation ? (sku.parentSku ?? sku.name ?? sku.sku) : sku.sku;
    return {
      item_id: 1_000_000_000 + (hashString(`item:${itemKey}`) % 9_000_000_000),
      item_sku: sku.variation ? (sku.parentSku ?? '') : sku.sku,
      item_name: sku.name ?? `Product ${sku.sku}`,
      model_id: sku.variation ? 10_000_000_000 + (hash % 90_000_000_000) : 0,
      model_sku: sku.variation ? sku.sku : '',
      model_name: sku.variation ?? '',
      price,
      weight: sku.weight ?? round2(random.int(5, 100) / 100),
    };
  });
}

/**
 * The picture of the sandbox's own items (served at /sandbox/file/<id> like an uploaded one): Shopee has no item
 * without one, and "Import to listings" takes a listing's images from its item.
 */
export const PRODUCT_IMAGE = {
  id: 'sbxproduct',
  contentType: 'image/png',
  // A 1×1 PNG.
  bytes: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  ),
} as const;

/** The stock each of a new shop's products starts with. */
export const STARTING_STOCK = 100;
/** The category and logistics channel of the sandbox's own items (Shopee MY: Women's Clothes; Shopee Xpress). */
const DEFAULT_CATEGORY_ID = 100_017;
const DEFAULT_LOGISTIC_ID = 20_011;

/**
 * The listings the products make, so the product calls and the orders agree: one item per item_id, the products
 * with a variation as its models under one tier ("Variation").
 */
export function itemsOf(products: readonly SandboxProduct[], nowSeconds: number): SandboxItem[] {
  const items = new Map<number, SandboxItem>();
  for (const product of products) {
    let item = items.get(product.item_id);
    if (!item) {
      item = {
        item_id: product.item_id,
        item_sku: product.item_sku,
        item_name: product.item_name,
        description: product.item_name,
        category_id: DEFAULT_CATEGORY_ID,
        item_status: 'NORMAL',
        create_time: nowSeconds,
        update_time: nowSeconds,
        weight: product.weight,
        image_ids: [PRODUCT_IMAGE.id],
        logistic_ids: [DEFAULT_LOGISTIC_ID],
        condition: 'NEW',
        price: product.price,
        stock: product.model_id === 0 ? STARTING_STOCK : 0,
        tiers: product.model_id === 0 ? [] : [{ name: 'Variation', options: [] }],
        models: [],
      };
      items.set(product.item_id, item);
    }
    if (product.model_id === 0) continue;
    const tier = item.tiers[0]!;
    tier.options.push(product.model_name);
    item.models.push({
      model_id: product.model_id,
      tier_index: [tier.options.length - 1],
      model_sku: product.model_sku,
      price: product.price,
      stock: STARTING_STOCK,
    });
  }
  return [...items.values()];
}

/** A seller's warehouse in the Klang Valley, where the couriers pick orders up. */
export function pickupAddress(shopId: number, shopName: string, seed: number | string): SandboxAddress {
  const random = new SeededRandom(`${seed}:shop:${shopId}`);
  const [city, zipcode] = random.pick([
    ['Puchong', '47100'],
    ['Shah Alam', '40150'],
    ['Petaling Jaya', '46050'],
    ['Klang', '41050'],
    ['Seri Kembangan', '43300'],
  ] as const);
  return {
    address_id: shopId * 10 + 1,
    name: shopName,
    phone: `6012${random.chars('0123456789', 7)}`,
    state: 'Selangor',
    city,
    zipcode,
    address: `Lot ${random.int(1, 90)}, Jalan Perindustrian ${random.int(1, 12)}, Taman Perindustrian ${city}`,
  };
}

export const CARRIERS = [
  ['Shopee Xpress', 50],
  ['J&T Express', 20],
  ['Ninja Van', 12],
  ['Pos Laju', 8],
  ['DHL eCommerce', 5],
  ['City-Link Express', 5],
] as const;

const PAYMENT_METHODS = [
  ['Online Banking', 35],
  ['ShopeePay', 30],
  ['Credit/Debit Card', 20],
  ['SPayLater', 15],
] as const;

const MESSAGES = [
  'Please pack nicely, it is a gift. Thank you!',
  'Tolong bungkus elok-elok ya, terima kasih.',
  'Kalau boleh hantar cepat sikit, nak guna minggu ni.',
  'Please call before delivery.',
  'Letak depan pintu jika tiada orang.',
];

const BUYER_CANCEL_REASONS = [
  'Need to change delivery address',
  'Need to modify order',
  'Found cheaper elsewhere',
  'Others / change of mind',
];

const ORDER_SN_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Shopee's form: the Malaysian date (YYMMDD) and eight more characters, e.g. 241121 5JYEEFW0. */
function orderSn(random: SeededRandom, atMs: number): string {
  const date = new Date(atMs + MYT_OFFSET_MS).toISOString();
  return `${date.slice(2, 4)}${date.slice(5, 7)}${date.slice(8, 10)}${random.chars(ORDER_SN_CHARS, 8)}`;
}

export function newOrder(
  random: SeededRandom,
  shop: SandboxShop,
  atMs: number,
  taken: (orderSn: string) => boolean,
): SandboxOrder {
  let sn = orderSn(random, atMs);
  while (taken(sn)) sn = orderSn(random, atMs);
  const { buyer, state, address } = malaysianBuyer(random);

  const lineCount = Math.min(
    shop.products.length,
    random.weighted([
      [1, 60],
      [2, 28],
      [3, 12],
    ] as const),
  );
  const chosen = new Set<SandboxProduct>();
  while (chosen.size < lineCount) chosen.add(random.pick(shop.products));
  const items: ShopeeOrderItem[] = [...chosen].map((product) => {
    const quantity = random.weighted([
      [1, 75],
      [2, 17],
      [3, 6],
      [5, 2],
    ] as const);
    // A promotion takes 5–25% off, to the ten sen (29.90 → 25.40).
    const discounted = random.chance(0.3)
      ? Math.round((product.price * random.int(75, 95)) / 10) / 10
      : product.price;
    return {
      item_id: product.item_id,
      item_name: product.item_name,
      item_sku: product.item_sku,
      model_id: product.model_id,
      model_name: product.model_name,
      model_sku: product.model_sku,
      model_quantity_purchased: quantity,
      model_original_price: product.price,
      model_discounted_price: round2(discounted),
      wholesale: false,
      weight: product.weight,
      add_on_deal: false,
      main_item: false,
      add_on_deal_id: 0,
      promotion_type: discounted < product.price ? 'product_promotion' : '',
      promotion_id: 0,
      order_item_id: product.item_id,
      promotion_group_id: 0,
    };
  });

  const shippingFee = state.east ? random.pick([7.9, 9.9, 12.9]) : random.pick([4.9, 5.9, 6.9, 7.9]);
  const freeShipping = random.chance(0.45);
  const goods = items.reduce(
    (sum, item) => sum + item.model_discounted_price * item.model_quantity_purchased,
    0,
  );
  const cod = random.chance(0.3);
  const carrier = random.weighted(CARRIERS);
  const daysToShip = random.chance(0.3) ? 3 : 2;
  const created = stampSeconds(atMs);
  const weightKg = items.reduce((sum, item) => sum + (item.weight ?? 0) * item.model_quantity_purchased, 0);

  // What will happen to the order, decided now.
  const plan: PlannedChange[] = [];
  let readyAt = atMs;
  if (!cod) {
    if (random.chance(0.9)) {
      readyAt = atMs + random.int(1, 25) * MINUTE;
      plan.push({ at: readyAt, step: 'pay' });
    } else {
      plan.push({
        at: atMs + random.int(60, 180) * MINUTE,
        step: 'cancel',
        cancel_by: 'system',
        reason: 'Unpaid order',
      });
    }
  }
  const cancelRoll = random.next();
  if (cancelRoll < 0.03) {
    plan.push({
      at: readyAt + random.int(5, 55) * MINUTE,
      step: 'cancel',
      cancel_by: 'buyer',
      reason: random.pick(BUYER_CANCEL_REASONS),
    });
  } else if (cancelRoll < 0.06) {
    const requested = readyAt + random.int(60, 240) * MINUTE;
    const reason = random.pick(BUYER_CANCEL_REASONS);
    plan.push({ at: requested, step: 'request_cancel', reason });
    plan.push({ at: requested + random.int(30, 120) * MINUTE, step: 'cancel', cancel_by: 'buyer', reason });
  }
  plan.sort((a, b) => a.at - b.at);

  const detail: ShopeeOrder = {
    order_sn: sn,
    region: 'MY',
    currency: 'MYR',
    cod,
    order_status: cod ? 'READY_TO_SHIP' : 'UNPAID',
    create_time: created,
    update_time: created,
    days_to_ship: daysToShip,
    ship_by_date: created + daysToShip * 86_400,
    message_to_seller: random.chance(0.15) ? random.pick(MESSAGES) : '',
    buyer_user_id: random.int(100_000_000, 999_999_999),
    buyer_username: buyer.username,
    estimated_shipping_fee: shippingFee,
    recipient_address: address,
    actual_shipping_fee: shippingFee,
    goods_to_declare: false,
    note: '',
    note_update_time: 0,
    item_list: items,
    dropshipper: '',
    dropshipper_phone: '',
    split_up: false,
    buyer_cancel_reason: '',
    cancel_by: '',
    cancel_reason: '',
    actual_shipping_fee_confirmed: false,
    fulfillment_flag: 'fulfilled_by_local_seller',
    pickup_done_time: 0,
    package_list: [
      {
        package_number: `OFG${random.chars('0123456789', 12)}`,
        logistics_status: cod ? 'LOGISTICS_READY' : 'LOGISTICS_NOT_START',
        shipping_carrier: carrier,
        item_list: items.map((item) => ({
          item_id: item.item_id,
          model_id: item.model_id,
          model_quantity: item.model_quantity_purchased,
          order_item_id: item.order_item_id,
          promotion_group_id: 0,
        })),
      },
    ],
    shipping_carrier: carrier,
    payment_method: cod ? 'Cash on Delivery' : random.weighted(PAYMENT_METHODS),
    total_amount: round2(goods + (freeShipping ? 0 : shippingFee)),
    checkout_shipping_carrier: carrier,
    reverse_shipping_fee: 0,
    order_chargeable_weight_gram: Math.round(weightKg * 1000),
  };
  return { shop_id: shop.shop_id, detail, plan, tracking_number: '', document: null };
}

/** A tracking number in the carrier's own form. */
export function trackingNumberFor(carrier: string, random: SeededRandom): string {
  const digits = (n: number) => random.chars('0123456789', n);
  switch (carrier) {
    case 'Shopee Xpress':
      return `SPXMY0${digits(10)}`;
    case 'J&T Express':
      return `63${digits(10)}`;
    case 'Ninja Van':
      return `NVMY${digits(12)}`;
    case 'Pos Laju':
      return `ER${digits(9)}MY`;
    case 'DHL eCommerce':
      return `5${digits(15)}`;
    case 'City-Link Express':
      return `060${digits(10)}`;
    default:
      return `MY${digits(12)}`;
  }
}

/** When a pickup or drop-off hands the parcel over, and the days it then takes to arrive and be confirmed. */
export function deliveryPlan(random: SeededRandom, pickedUpAt: number): PlannedChange[] {
  const delivered = pickedUpAt + random.int(1, 4) * DAY + random.int(0, 10) * HOUR;
  return [
    { at: pickedUpAt, step: 'pickup' },
    { at: delivered, step: 'deliver' },
    { at: delivered + random.int(1, 3) * DAY, step: 'complete' },
  ];
}

export { DAY, HOUR, MINUTE };
