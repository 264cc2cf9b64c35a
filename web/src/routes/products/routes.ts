import { CONTROL_KEY, LISTING_KEYS } from '@web/api/promotions';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Products (spec §2; shell.md `/products/`):
 * - the download status view: each store's download of its marketplace items and the link grid of the channel SKUs
 *   it brought in. Reading needs `listings-index`, the API's key; downloading and linking `listings-manage` (the
 *   screen hides those actions without it);
 * - price control per marketplace, discount promotion and gift-with-purchase promotions (`marketplace-pricing`,
 *   `shopee-discount`, `promotions`): seen with any listings key, prices with marketplace_control.
 */
export const productRoutes: ModuleRoute[] = [
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
