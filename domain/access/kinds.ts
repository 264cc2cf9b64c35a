import type { PermissionKey } from './permissions';

/**
 * The user kinds of spec §6. The owner holds every key and a sub-user the keys of their group; the partner kinds
 * (people outside the seller's staff the account lets in) hold a fixed scope of their kind, and only that: they pass
 * no route that is open to every seller user, since their own screens arrive with the domains that serve them
 * (dropshipping, sales, affiliates, cargo logistics).
 */
export const PARTNER_KINDS = [
  'supplier',
  'dropshipper',
  'dealer',
  'salesperson',
  'affiliate',
  'cargo_logistics',
] as const;
export type PartnerKind = (typeof PARTNER_KINDS)[number];

export const SELLER_KINDS = ['owner', 'subuser'] as const;
export type SellerKind = (typeof SELLER_KINDS)[number];

/** Every kind a seller account's user may have: its staff and its partners. */
export const ACCOUNT_USER_KINDS = [...SELLER_KINDS, ...PARTNER_KINDS] as const;
export type AccountUserKind = (typeof ACCOUNT_USER_KINDS)[number];

export const PARTNER_SCOPES: Record<PartnerKind, readonly PermissionKey[]> = {
  // A supplier fulfils the seller's dropship orders and sees the purchases made from them.
  supplier: [
    'supplier-dropship-view',
    'supplier-dropship-cancel-refund-order',
    'supplier-dropship-manual-auto-get-tracking',
    'purchases-index',
  ],
  // A dropshipper sells the seller's goods: their dropship orders and their wallet.
  dropshipper: ['orders-dropship', 'supplier-dropship-view', 'supplier-dropship-manage-wallet'],
  // A dealer resells: their own sales and customers.
  dealer: ['sales-index', 'sales-manage', 'customer-manage'],
  salesperson: ['sales-index', 'sales-manage', 'sales-quotation', 'customer-manage'],
  affiliate: ['referrals'],
  cargo_logistics: ['fulfillment-manage'],
};

export const isPartnerKind = (kind: string): kind is PartnerKind =>
  (PARTNER_KINDS as readonly string[]).includes(kind);
export const isSellerKind = (kind: string): kind is SellerKind =>
  (SELLER_KINDS as readonly string[]).includes(kind);
