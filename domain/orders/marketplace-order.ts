import { z } from 'zod';
import { TEXT_LIMITS } from '../shared/limits';

/**
 * An order as a marketplace reports it, in Kedai's words: what an integration (integrations/shopee, later Lazada,
 * TikTok Shop, Shopify…) hands to the order import (commands/orders/import.ts). Integrations translate their own
 * shapes into this one; nothing past the import knows a marketplace's field names.
 */

/** The channels an order comes from, spelt as the spec's platform list spells them (shell.md §3: `tiktokshop`). */
export const PLATFORMS = ['shopee', 'lazada', 'tiktokshop', 'shopify', 'webstore'] as const;
export type Platform = (typeof PLATFORMS)[number];
/**
 * A platform as it was stored. Before the spec's spelling, orders said 'tiktok': stored events are never rewritten,
 * and saved auto batch conditions may name it, so both read as 'tiktokshop' (no integration ever imported a TikTok
 * Shop order, so no read-model row says 'tiktok'; a rebuild would write 'tiktokshop').
 */
export const spelledAsSpec = <T>(value: T): T | 'tiktokshop' => (value === 'tiktok' ? 'tiktokshop' : value);
export const StoredPlatform = z.preprocess(spelledAsSpec, z.enum(PLATFORMS));

/** Where the marketplace says the order is. The import maps these onto Kedai's fulfilment states. */
export const MARKETPLACE_STATUSES = [
  'unpaid',
  'ready_to_ship',
  'processed',
  'shipped',
  'completed',
  'cancelled',
  'in_cancel',
  'to_return',
] as const;
export type MarketplaceStatus = (typeof MARKETPLACE_STATUSES)[number];

const Text = (max: number) => z.string().max(max);

/** An ISO 3166-1 alpha-2 country code: a fixed length, not a text limit of its kind. */
export const COUNTRY_CODE_LENGTH = 2;
/** A money amount as a decimal string with at most two decimals ("12.50"). */
export const Money = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/);

export const OrderAddress = z.strictObject({
  /** The buyer's full name, as the marketplace gives it (kept beside its parts). */
  name: Text(TEXT_LIMITS.name),
  /** Spec §3 "first and last name": the marketplace's own, or the full name split (`withNameParts`). */
  firstName: Text(TEXT_LIMITS.name).optional(),
  lastName: Text(TEXT_LIMITS.name).optional(),
  /** Wider than a form takes (TEXT_LIMITS.phone): what a marketplace sends is kept as it is. */
  phone: Text(40),
  /** The full address as one text, as marketplaces give it (wider than a form's TEXT_LIMITS.address, likewise). */
  fullAddress: Text(1000),
  city: Text(TEXT_LIMITS.name),
  state: Text(TEXT_LIMITS.name),
  postalCode: Text(TEXT_LIMITS.code),
  country: Text(COUNTRY_CODE_LENGTH),
  district: Text(TEXT_LIMITS.name).optional(),
  /** Barangay (the Philippines). */
  barangay: Text(TEXT_LIMITS.name).optional(),
  email: Text(TEXT_LIMITS.email).optional(),
});
export type OrderAddress = z.infer<typeof OrderAddress>;

/**
 * A full name as first and last name, for a marketplace that gives one name: the first word is the first name and
 * the rest the last (Malay names read "Ahmad" / "bin Abdullah"); a name without spaces (Chinese, Thai) stays whole
 * as the first name, since where its family name ends cannot be told.
 */
export function splitName(full: string): { firstName: string; lastName: string } {
  const [first = '', ...rest] = full.trim().split(/\s+/);
  return { firstName: first, lastName: rest.join(' ') };
}

/** The address with its first and last name: the marketplace's when it gave them, else the full name split. */
export function withNameParts(address: OrderAddress): OrderAddress {
  if (address.firstName !== undefined || address.lastName !== undefined) return address;
  const { firstName, lastName } = splitName(address.name);
  return { ...address, firstName, ...(lastName ? { lastName } : {}) };
}

export const MarketplaceOrderLine = z.strictObject({
  /** The marketplace's line key (item + model), stable across updates. */
  lineKey: Text(200).min(1),
  /** The marketplace's own SKU for the item (or model). */
  sku: Text(200),
  /** The seller SKU the seller typed on the marketplace: what maps the line onto a master code. */
  sellerSku: Text(200),
  name: Text(500),
  variation: Text(300).optional(),
  quantity: z.number().int().min(1).max(100_000),
  unitPrice: Money,
  /** Given free (a gift-with-purchase promotion's gift): priced 0, picked and packed like any line. */
  gift: z.boolean().optional(),
});
export type MarketplaceOrderLine = z.infer<typeof MarketplaceOrderLine>;

export const MarketplaceOrder = z.strictObject({
  platform: StoredPlatform,
  /** The marketplace's order number (Shopee's order_sn): unique within a store. */
  orderNumber: Text(100).min(1),
  status: z.enum(MARKETPLACE_STATUSES),
  /** ISO instants. */
  orderedAt: z.iso.datetime({ offset: true }),
  paidAt: z.iso.datetime({ offset: true }).nullable(),
  updatedAt: z.iso.datetime({ offset: true }),
  cod: z.boolean(),
  paymentMethod: Text(100),
  currency: Text(3),
  totalAmount: Money,
  shippingFee: Money.optional(),
  buyerUsername: Text(200).optional(),
  buyerRemark: Text(2000).optional(),
  /** The seller's own note on the order (Shopee's note). */
  sellerRemark: Text(2000).optional(),
  /** Who fulfils it (Shopee's fulfillment_flag: the seller, the marketplace's warehouse…). */
  fulfilmentType: Text(100).optional(),
  /** The marketplace's packages the order ships in (spec §3 "package number, assigned packages"). */
  packageNumbers: z.array(Text(100)).max(50).optional(),
  shippingProvider: Text(200).optional(),
  trackingNumber: Text(100).optional(),
  /** Marketplace pre-order (days to ship beyond the usual). */
  preOrder: z.boolean(),
  address: OrderAddress,
  lines: z.array(MarketplaceOrderLine).min(1).max(500),
});
export type MarketplaceOrder = z.infer<typeof MarketplaceOrder>;

/** Why a seller cancels an order of a marketplace (what the marketplace is told). */
export const SELLER_CANCEL_REASONS = ['out_of_stock', 'undeliverable_area', 'cod_not_supported'] as const;
export type SellerCancelReason = (typeof SELLER_CANCEL_REASONS)[number];
