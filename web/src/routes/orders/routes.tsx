import { ORDER_READER_KEYS, ORDER_TABS } from '@domain/orders/board';
import { ORDER_ALIASES } from '@web/routes/orders/aliases';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Orders → Manage orders (spec §2 /orders/manage/{tab?}; issue 6 item 8): one board, a route per tab so the page
 * title follows the tab ("Kedai - New orders"…, spec §2 "The Manage Orders title depends on a tab value"), and the
 * spec's list routes (/orders/new-orders, /orders/unscan, …) leading to their tab. A user holding an order key of
 * spec §6 may open it (the keys the board's API asks for); each action shows to those holding its key.
 */
const access = { anyPermission: ORDER_READER_KEYS } as const;

const board = lazyScreen(() => import('./board/page'));
const alias = lazyScreen(() => import('./board/alias'));

export const orderRoutes: ModuleRoute[] = [
  ...ORDER_TABS.map(
    (tab): ModuleRoute => ({
      path: `orders/manage/${tab}`,
      titleKey: `orders:manage.titles.${tab}`,
      element: board,
      access,
      ...(tab === 'all' ? { menu: { section: 'orders', labelKey: 'orders:nav.manage' } } : {}),
    }),
  ),
  { path: 'orders/manage', titleKey: 'orders:manage.titles.all', element: board, access },
  ...Object.entries(ORDER_ALIASES).map(
    ([path, tab]): ModuleRoute => ({
      path: `orders/${path}`,
      titleKey: `orders:manage.titles.${tab}`,
      element: alias,
      access,
    }),
  ),
];
