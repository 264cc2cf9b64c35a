import { SYNC_KEY } from '@web/api/stock-push';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * The stock push (issue 15): the allocation screens, "sync now" and the push log, at the spec's own paths (shell.md
 * §2 /inventory/ and /logistic/ routes). Each needs inventory-manage-sync (spec §6 "Inventory: manage and sync");
 * choosing the warehouses of a store, multiple-warehouse-linking as well (its button shows only then).
 */
export const stockPushRoutes: ModuleRoute[] = [
  {
    path: 'inventory/stock-allocation-store',
    titleKey: 'push:stores.title',
    element: lazyScreen(() => import('./store-allocation-page')),
    access: { permission: SYNC_KEY },
    menu: { section: 'inventory', labelKey: 'push:nav.stores' },
  },
  {
    path: 'inventory/stock-allocation-marketplace',
    titleKey: 'push:marketplace.title',
    element: lazyScreen(() => import('./marketplace-allocation-page')),
    access: { permission: SYNC_KEY },
    menu: { section: 'inventory', labelKey: 'push:nav.marketplace' },
  },
  {
    path: 'inventory/manual-sync-status',
    titleKey: 'push:sync.title',
    element: lazyScreen(() => import('./manual-sync-page')),
    access: { permission: SYNC_KEY },
    menu: { section: 'inventory', labelKey: 'push:nav.manual_sync' },
  },
  {
    path: 'logistic/sync-qty-log',
    titleKey: 'push:log.title',
    element: lazyScreen(() => import('./sync-log-page')),
    access: { permission: SYNC_KEY },
    menu: { section: 'inventory', labelKey: 'push:nav.log' },
  },
];
