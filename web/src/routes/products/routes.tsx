import { CONTROL_KEY, LISTING_KEYS } from '@web/api/promotions';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Products → price control per marketplace, discount promotion and gift-with-purchase promotions (issue 15; shell.md
 * `/products/` routes `marketplace-pricing`, `shopee-discount`, `promotions`): seen with any listings key, prices
 * with marketplace_control.
 */
export const promotionRoutes: ModuleRoute[] = [
  {
    path: 'products/shopee-discount',
    titleKey: 'promotions:discount.title',
    element: lazyScreen(() => import('./discount-page')),
    access: { anyPermission: LISTING_KEYS },
    menu: { section: 'main', labelKey: 'promotions:nav.discount' },
  },
  {
    path: 'products/promotions',
    titleKey: 'promotions:gift.title',
    element: lazyScreen(() => import('./gift-page')),
    access: { anyPermission: LISTING_KEYS },
    menu: { section: 'main', labelKey: 'promotions:nav.gift' },
  },
  {
    path: 'products/marketplace-pricing',
    titleKey: 'promotions:pricing.title',
    element: lazyScreen(() => import('./pricing-page')),
    access: { permission: CONTROL_KEY },
    menu: { section: 'main', labelKey: 'promotions:nav.pricing' },
  },
];
