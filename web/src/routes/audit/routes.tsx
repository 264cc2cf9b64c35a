import { DOCUMENT_KINDS, DOCUMENT_READERS } from '@domain/audit/documents';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Reports as of a past date (stock balance and valuation, open orders: `pos-view-print-report`) and the auditor's
 * replay of a stock (`inventory-stock-movement`) or a document (whoever may see it; the API checks the kind's key).
 */
export const auditRoutes: ModuleRoute[] = [
  {
    path: 'audit/as-of/stock',
    titleKey: 'audit:as_of_stock.title',
    element: lazyScreen(() => import('./as-of-stock/page')),
    access: { permission: 'pos-view-print-report' },
    menu: { section: 'inventory', labelKey: 'audit:nav.as_of_stock' },
  },
  {
    path: 'audit/as-of/orders',
    titleKey: 'audit:as_of_orders.title',
    element: lazyScreen(() => import('./as-of-orders/page')),
    access: { permission: 'pos-view-print-report' },
    menu: { section: 'orders', labelKey: 'audit:nav.as_of_orders' },
  },
  {
    path: 'audit/stock',
    titleKey: 'audit:stock.title',
    element: lazyScreen(() => import('./stock-replay/page')),
    access: { permission: 'inventory-stock-movement' },
    menu: { section: 'inventory', labelKey: 'audit:nav.stock_replay' },
  },
  {
    path: 'audit/:kind/:id',
    titleKey: 'audit:document.page_title',
    element: lazyScreen(() => import('./document-replay/page')),
    access: { anyPermission: [...new Set(DOCUMENT_KINDS.flatMap((kind) => DOCUMENT_READERS[kind]))] },
  },
];
