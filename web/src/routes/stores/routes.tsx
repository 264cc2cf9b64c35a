import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Settings → store integration (spec §2): the stores screen, the marketplace's callback route
 * /settings/store/add/{platform}/create, and the result page it leads to. All need `marketplace_control`, the key
 * the store API asks for.
 */
const access = { permission: 'marketplace_control' } as const;

export const storeRoutes: ModuleRoute[] = [
  {
    path: 'settings/store-integration',
    titleKey: 'stores:title',
    element: lazyScreen(() => import('./page')),
    access,
    menu: { section: 'settings', labelKey: 'stores:nav' },
  },
  {
    path: 'settings/store/add/:platform/create',
    titleKey: 'stores:callback.title',
    element: lazyScreen(() => import('./callback')),
    access,
  },
  {
    path: 'settings/store/result',
    titleKey: 'stores:result.title',
    element: lazyScreen(() => import('./result')),
    access,
  },
];
