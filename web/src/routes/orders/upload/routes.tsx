import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/** Orders → upload orders (issue 14): manual orders in bulk, for holders of spec §6 `orders-upload`. */
export const orderUploadRoutes: ModuleRoute[] = [
  {
    path: 'orders/upload',
    titleKey: 'orders:upload.title',
    element: lazyScreen(() => import('./page')),
    access: { permission: 'orders-upload' },
    menu: { section: 'orders', labelKey: 'orders:upload.nav' },
  },
  {
    path: 'orders/upload-history',
    titleKey: 'uploads:order.title',
    element: lazyScreen(() => import('./history-page')),
    access: { permission: 'orders-upload' },
    menu: { section: 'orders', labelKey: 'uploads:nav.order' },
  },
];
