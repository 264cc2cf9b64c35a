import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

import { SCAN_KEYS } from './keys';

/**
 * Orders → smart scan (spec §2 /orders/smart-scan; issue 6 item 5): scan to verify with a keyboard-wedge scanner.
 * For whoever works the unscan orders, pickers working by task, and batch managers (spec §6 orders keys). The bulk
 * scan control (spec §2 /settings/ "bulk scan control") is set by batch managers.
 */

export const scanRoutes: ModuleRoute[] = [
  {
    path: 'orders/smart-scan',
    titleKey: 'batches:scan.title',
    element: lazyScreen(() => import('./page')),
    access: { anyPermission: SCAN_KEYS },
    module: 'smartScan',
    menu: { section: 'orders', labelKey: 'batches:nav.scan' },
  },
  {
    path: 'settings/bulk-scan-control',
    titleKey: 'batches:scan_control.title',
    element: lazyScreen(() => import('./settings-page')),
    access: { permission: 'orders-batch' },
    module: 'smartScan',
    menu: { section: 'settings', labelKey: 'batches:nav.scan_control' },
  },
];
