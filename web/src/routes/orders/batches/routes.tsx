import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Orders → batches (spec §2 /orders/batch, /orders/new-batch, /orders/batch-separation, /orders/batch-setting; issue
 * 6 item 4, issue 14): the batch list with making, changing and printing batches, making a batch as a page,
 * separating a batch, and the auto batch configurations. All need "batch" (spec §6 orders-batch).
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
    path: 'orders/new-batch',
    titleKey: 'batches:create.title',
    element: lazyScreen(() => import('./new-batch-page')),
    access: { permission: 'orders-batch' },
    menu: { section: 'orders', labelKey: 'batches:nav.new_batch' },
  },
  {
    path: 'orders/batch-separation',
    titleKey: 'batches:separation.title',
    element: lazyScreen(() => import('./separation-page')),
    access: { permission: 'orders-batch' },
    menu: { section: 'orders', labelKey: 'batches:nav.separation' },
  },
  {
    path: 'orders/batch-setting',
    titleKey: 'batches:settings.title',
    element: lazyScreen(() => import('./settings/page')),
    access: { permission: 'orders-batch' },
    menu: { section: 'orders', labelKey: 'batches:nav.settings' },
  },
];
