import { namespaceOf } from '@web/i18n/namespaces';
import { accountRoutes } from './account/routes';
import { adminRoutes } from './admin/routes';
import { auditRoutes } from './audit/routes';
import { goodsIssueRoutes } from './goods-issue/routes';
import { inventoryRoutes } from './inventory/routes';
import { stockRoutes } from './inventory/stock-routes';
import { batchRoutes } from './orders/batches/routes';
import { printingRoutes } from './orders/print/routes';
import { orderRoutes } from './orders/routes';
import { scanRoutes } from './orders/scan/routes';
import { orderUploadRoutes } from './orders/upload/routes';
import { productRoutes } from './products/routes';
import { purchaseRoutes } from './purchases/routes';
import { reportRoutes } from './reports/routes';
import { settingsRoutes } from './settings/routes';
import { stockPushRoutes } from './stock-push/routes';
import { storeRoutes } from './stores/routes';
import { transferRoutes } from './transfers/routes';
import type { ModuleRoute } from './types';

/** Every module screen inside the signed-in layout; a later module adds its list here. */
export const moduleRoutes: readonly ModuleRoute[] = [
  ...settingsRoutes,
  ...accountRoutes,
  ...orderRoutes,
  ...batchRoutes,
  ...scanRoutes,
  ...printingRoutes,
  ...orderUploadRoutes,
  ...productRoutes,
  ...storeRoutes,
  ...inventoryRoutes,
  ...stockRoutes,
  ...stockPushRoutes,
  ...goodsIssueRoutes,
  ...transferRoutes,
  ...purchaseRoutes,
  ...reportRoutes,
  ...auditRoutes,

  ...adminRoutes,
];

/** The namespaces the menu and the page titles of the modules need loaded. */
export const menuNamespaces: readonly string[] = [
  ...new Set([
    'common',
    ...moduleRoutes.flatMap((route) =>
      [route.titleKey, route.menu?.labelKey ?? route.titleKey].map(namespaceOf),
    ),
  ]),
];
