import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Orders → batches (spec §2 /orders/batch, /orders/batch-setting; issue 6 item 4): the batch list with making,
 * changing and printing batches, and the auto batch configurations. Both need "batch" (spec §6 orders-batch).
 */
export const batchRoutes: ModuleRoute[] = [
  {
    path: 'orders/batch',
    titleKey: 'batches:list.title',
    element: lazyScreen(() => import('./list/page')),
    access: { permission: 'orders-batch' },
    menu: { section: 'orders', labelKey: 'batches:nav.batches' },
  },
  {
    path: 'orders/batch-setting',
    titleKey: 'batches:settings.title',
    element: lazyScreen(() => import('./settings/page')),
    access: { permission: 'orders-batch' },
    menu: { section: 'orders', labelKey: 'batches:nav.settings' },
  },
];
