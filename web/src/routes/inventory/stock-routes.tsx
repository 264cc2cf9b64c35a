import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * The stock screens (issue 4): the live stock list, adjustments (single and by file, and the files' upload history),
 * the movement report with its export, the point-in-time view and barcode printing, each behind its permission of
 * spec §6.
 */
export const stockRoutes: ModuleRoute[] = [
  {
    path: 'inventory/list',
    titleKey: 'stock:list.title',
    element: lazyScreen(() => import('./stock-list/page')),
    access: { permission: 'inventory-master-code' },
    menu: { section: 'inventory', labelKey: 'stock:nav.list' },
  },
  {
    path: 'inventory/stock-adjustment',
    titleKey: 'stock:adjust.title',
    element: lazyScreen(() => import('./stock-adjustment/page')),
    access: { permission: 'inventory-stock-adjustment' },
    menu: { section: 'inventory', labelKey: 'stock:nav.adjustment' },
  },
  {
    path: 'inventory/stock-adjustment/upload-history',
    titleKey: 'uploads:stock_adjustment.title',
    element: lazyScreen(() => import('./stock-adjustment/upload-history-page')),
    access: { permission: 'inventory-stock-adjustment' },
    menu: { section: 'inventory', labelKey: 'uploads:nav.stock_adjustment' },
  },
  {
    path: 'inventory/stock-movement',
    titleKey: 'stock:movements.title',
    element: lazyScreen(() => import('./stock-movement/page')),
    access: { permission: 'inventory-stock-movement' },
    menu: { section: 'inventory', labelKey: 'stock:nav.movement' },
  },
  {
    path: 'inventory/stock-history',
    titleKey: 'stock:history.title',
    element: lazyScreen(() => import('./stock-history/page')),
    access: { permission: 'inventory-stock-movement' },
    menu: { section: 'inventory', labelKey: 'stock:nav.history' },
  },
  {
    path: 'inventory/print-barcode',
    titleKey: 'stock:labels.title',
    element: lazyScreen(() => import('./print-barcode/page')),
    access: { permission: 'inventory-master-code' },
    menu: { section: 'inventory', labelKey: 'stock:nav.print_barcode' },
  },
];
