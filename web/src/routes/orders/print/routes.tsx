import { PRINT_KEYS, SETTINGS_KEY } from '@web/api/printing';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Printing, returns and carrier manifests (issue 6 items 6 and 7): the print screen a selection of orders opens
 * (/orders/print?document=…&origin=…&ids=…), the print settings and the print log, the return reconciliation and
 * the carrier manifests with their invoice (spec §2 routes /orders/return-reconciliation, /orders/carrier-manifests,
 * /orders/manifest-invoice). Each names the keys its API asks for (spec §6): an order key that prints for the print
 * screen; that or orders-customize-delivery-order (which changes them) for the settings.
 */
export const printingRoutes: ModuleRoute[] = [
  {
    path: 'orders/print',
    titleKey: 'printing:print.title',
    element: lazyScreen(() => import('./print-page')),
    access: { anyPermission: PRINT_KEYS },
  },
  {
    path: 'orders/print-settings',
    titleKey: 'printing:settings.title',
    element: lazyScreen(() => import('./settings-page')),
    access: { anyPermission: [...PRINT_KEYS, SETTINGS_KEY] },
    menu: { section: 'orders', labelKey: 'printing:nav.settings' },
  },
  {
    path: 'orders/print-log',
    titleKey: 'printing:log.title',
    element: lazyScreen(() => import('./log-page')),
    access: { permission: 'orders-view-all' },
    menu: { section: 'orders', labelKey: 'printing:nav.log' },
  },
  {
    path: 'orders/worker-auto-print',
    titleKey: 'printing:auto_print.title',
    element: lazyScreen(() => import('./auto-print-page')),
    access: { anyPermission: PRINT_KEYS },
    menu: { section: 'orders', labelKey: 'printing:nav.auto_print' },
  },
  {
    path: 'orders/return-reconciliation',
    titleKey: 'returns:list.title',
    element: lazyScreen(() => import('../returns/page')),
    access: { permission: 'orders-view-all' },
    menu: { section: 'orders', labelKey: 'returns:nav.returns' },
  },
  {
    path: 'orders/carrier-manifests',
    titleKey: 'returns:manifests.title',
    element: lazyScreen(() => import('../manifests/page')),
    access: { permission: 'orders-manifest-export-v1' },
    menu: { section: 'orders', labelKey: 'returns:nav.manifests' },
  },
  {
    path: 'orders/manifest-invoice',
    titleKey: 'returns:manifests.invoice.title',
    element: lazyScreen(() => import('../manifests/invoice-page')),
    access: { permission: 'orders-manifest-export-v1' },
    menu: { section: 'orders', labelKey: 'returns:nav.manifest_invoice' },
  },
];
