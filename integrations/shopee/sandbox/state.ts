import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AddItemRequest, ShippingDocumentType, ShopeeOrder } from '../schemas';

/**
 * What the sandbox holds, as one JSON-serialisable snapshot: shops, their authorisations, codes and tokens, and
 * orders in Shopee's own shape plus what the sandbox needs to move them along (their planned status changes, the
 * tracking number, the shipping document). A store keeps the snapshot between runs.
 */

export interface SandboxProduct {
  item_id: number;
  item_sku: string;
  item_name: string;
  /** 0 when the product has no variations. */
  model_id: number;
  model_sku: string;
  model_name: string;
  /** MYR. */
  price: number;
  /** kg. */
  weight: number;
}

/** A model of an item (Shopee's variant): its place in the tiers, SKU, price and seller stock. */
export interface SandboxModel {
  model_id: number;
  tier_index: number[];
  model_sku: string;
  /** MYR. */
  price: number;
  stock: number;
}

/**
 * An item of the shop as the product calls see it. An item without tiers keeps its price and stock on itself
 * (model id 0); one with tiers on its models.
 */
export interface SandboxItem {
  item_id: number;
  item_sku: string;
  item_name: string;
  description: string;
  category_id: number;
  item_status: 'NORMAL' | 'UNLIST' | 'BANNED' | 'REVIEWING' | 'SELLER_DELETE';
  /** Unix seconds. */
  create_time: number;
  update_time: number;
  /** kg. */
  weight: number;
  dimension?: { package_length: number; package_width: number; package_height: number };
  image_ids: string[];
  logistic_ids: number[];
  condition: 'NEW' | 'USED';
  brand?: { brand_id: number; original_brand_name: string };
  /** The category's attributes as add_item or update_item last gave them. */
  attribute_list?: AddItemRequest['attribute_list'];
  price: number;
  stock: number;
  tiers: { name: string; options: string[] }[];
  models: SandboxModel[];
}

/** A discount promotion: its period (Unix seconds), and each model's promotion price. */
export interface SandboxDiscount {
  discount_id: number;
  discount_name: string;
  start_time: number;
  end_time: number;
  /** Ended early by end_discount, or deleted before it started. */
  status: 'active' | 'ended' | 'deleted';
  items: {
    item_id: number;
    model_id: number;
    promotion_price: number;
    purchase_limit: number;
    promotion_stock?: number;
  }[];
}

/** An add-on deal (a gift with a minimum spend, or an add-on discount), its main and sub items. */
export interface SandboxAddOnDeal {
  add_on_deal_id: number;
  add_on_deal_name: string;
  start_time: number;
  end_time: number;
  promotion_type: 0 | 1;
  purchase_min_spend?: number;
  per_gift_num?: number;
  status: 'active' | 'ended' | 'deleted';
  main_items: number[];
  sub_items: { item_id: number; model_id: number; price?: number; limit?: number }[];
}

export interface SandboxAddress {
  address_id: number;
  name: string;
  phone: string;
  state: string;
  city: string;
  zipcode: string;
  address: string;
}

export interface SandboxShop {
  shop_id: number;
  shop_name: string;
  region: 'MY';
  products: SandboxProduct[];
  /** The shop's listings (absent in a snapshot from before they were kept: made from `products` on load). */
  items?: SandboxItem[];
  discounts?: SandboxDiscount[];
  add_on_deals?: SandboxAddOnDeal[];
  pickup_address: SandboxAddress;
  /** The generator's state for this shop (see random.ts), and when its next order arrives (ms; null: none). */
  random: number;
  next_order_at: number | null;
  /** Partners the shop has authorised: Unix seconds. */
  authorizations: { partner_id: number; auth_time: number; expire_time: number }[];
}

export const PLAN_STEPS = ['pay', 'request_cancel', 'cancel', 'pickup', 'deliver', 'complete'] as const;
export type PlanStep = (typeof PLAN_STEPS)[number];

/** A status change the sandbox will make at `at` (ms) if the order is still in a state it applies to. */
export interface PlannedChange {
  at: number;
  step: PlanStep;
  cancel_by?: string;
  reason?: string;
}

export interface SandboxDocument {
  type: ShippingDocumentType;
  status: 'PROCESSING' | 'READY' | 'FAILED';
  /** When PROCESSING turns READY (ms). */
  ready_at: number;
}

export interface SandboxOrder {
  shop_id: number;
  /** Every field, optional ones included; get_order_detail answers the base fields and those asked for. */
  detail: ShopeeOrder;
  plan: PlannedChange[];
  tracking_number: string;
  document: SandboxDocument | null;
}

export interface SandboxGrant {
  token: string;
  partner_id: number;
  shop_id: number;
  /** ms. */
  expires_at: number;
  /** Authorisation codes are good once. */
  used?: boolean;
}

export interface SandboxSnapshot {
  version: 1;
  next_shop_id: number;
  /** The next item, model or image id the product calls hand out (absent in older snapshots). */
  next_listing_id?: number;
  shops: SandboxShop[];
  orders: SandboxOrder[];
  codes: SandboxGrant[];
  access_tokens: SandboxGrant[];
  refresh_tokens: SandboxGrant[];
}

export const emptySnapshot = (): SandboxSnapshot => ({
  version: 1,
  next_shop_id: 880_001,
  shops: [],
  orders: [],
  codes: [],
  access_tokens: [],
  refresh_tokens: [],
});

/** Where the sandbox keeps its snapshot between runs. */
export interface SandboxStore {
  /** Whether saving is worth scheduling (false for the in-memory store). */
  readonly persistent: boolean;
  load(): Promise<SandboxSnapshot | undefined>;
  save(snapshot: SandboxSnapshot): Promise<void>;
}

/** Nothing kept: each start begins empty (tests). */
export function memoryStore(): SandboxStore {
  return { persistent: false, load: async () => undefined, save: async () => {} };
}

export const SANDBOX_FILE = 'shopee-sandbox.json';

/** `<dir>/shopee-sandbox.json`, written to a temporary file and renamed, so a crash never leaves half a file. */
export function jsonFileStore(dir: string): SandboxStore {
  const file = path.join(dir, SANDBOX_FILE);
  return {
    persistent: true,
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      const snapshot = JSON.parse(text) as SandboxSnapshot;
      if (snapshot.version !== 1)
        throw new Error(`${file}: unknown sandbox snapshot version ${snapshot.version}`);
      return snapshot;
    },
    async save(snapshot) {
      await mkdir(dir, { recursive: true });
      const temporary = `${file}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(snapshot));
      await rename(temporary, file);
    },
  };
}
