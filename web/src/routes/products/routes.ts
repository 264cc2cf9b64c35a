import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Products (spec §2 "download status view"): each store's download of its marketplace items and the link grid of
 * the channel SKUs it brought in. Reading needs `listings-index`, the API's key; downloading and linking
 * `listings-manage` (the screen hides those actions without it).
 */
export const productRoutes: ModuleRoute[] = [
  {
    path: 'products/download-status',
    titleKey: 'downloads:title',
    element: lazyScreen(() => import('./download-status/page')),
    access: { permission: 'listings-index' },
    menu: { section: 'products', labelKey: 'downloads:nav' },
  },
];
