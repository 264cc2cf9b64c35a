import { CONTROL_KEY, LISTING_KEYS } from '@web/api/promotions';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Products (spec §2; shell.md `/products/`):
 * - listings, draft-listings, the editor (a new listing, or one by id) and listings-bulk: viewing needs
 *   listings-index, changing listings-manage (the bulk upload, its history and copy too);
 * - the download status view: each store's download of its marketplace items and the link grid of the channel SKUs
 *   it brought in. Reading needs `listings-index`, the API's key; downloading and linking `listings-manage` (the
 *   screen hides those actions without it);
 * - price control per marketplace, discount promotion and gift-with-purchase promotions (`marketplace-pricing`,
 *   `shopee-discount`, `promotions`): seen with any listings key, prices with marketplace_control.
 */
const view = { permission: 'listings-index' } as const;
const manage = { permission: 'listings-manage' } as const;

export const productRoutes: ModuleRoute[] = [
  {
    path: 'products/listings',
    titleKey: 'listings:list.title',
    element: lazyScreen(() => import('./list-page')),
    access: view,
    menu: { section: 'products', labelKey: 'listings:nav.listings' },
  },
  {
    path: 'products/draft-listings',
    titleKey: 'listings:drafts.title',
    element: lazyScreen(() => import('./drafts-page')),
    access: view,
    menu: { section: 'products', labelKey: 'listings:nav.drafts' },
  },
  {
    path: 'products/listings/:id',
    titleKey: 'listings:editor.title',
    element: lazyScreen(() => import('./editor-page')),
    access: view,
  },
  {
    path: 'products/listings-bulk',
    titleKey: 'listings:bulk.title',
    element: lazyScreen(() => import('./bulk-page')),
    access: manage,
    menu: { section: 'products', labelKey: 'listings:nav.bulk' },
  },
  {
    path: 'products/upload-history',
    titleKey: 'uploads:listing.title',
    element: lazyScreen(() => import('./upload-history-page')),
    access: manage,
    menu: { section: 'products', labelKey: 'uploads:nav.listing' },
  },
  {
    path: 'products/download-status',
    titleKey: 'downloads:title',
    element: lazyScreen(() => import('./download-status/page')),
    access: { permission: 'listings-index' },
    menu: { section: 'products', labelKey: 'downloads:nav' },
  },
  {
    path: 'products/shopee-discount',
    titleKey: 'promotions:discount.title',
    element: lazyScreen(() => import('./discount-page')),
    access: { anyPermission: LISTING_KEYS },
    menu: { section: 'products', labelKey: 'promotions:nav.discount' },
  },
  {
    path: 'products/promotions',
    titleKey: 'promotions:gift.title',
    element: lazyScreen(() => import('./gift-page')),
    access: { anyPermission: LISTING_KEYS },
    menu: { section: 'products', labelKey: 'promotions:nav.gift' },
  },
  {
    path: 'products/marketplace-pricing',
    titleKey: 'promotions:pricing.title',
    element: lazyScreen(() => import('./pricing-page')),
    access: { permission: CONTROL_KEY },
    menu: { section: 'products', labelKey: 'promotions:nav.pricing' },
  },
];
