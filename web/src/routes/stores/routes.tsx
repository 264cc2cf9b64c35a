import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Settings → store integration (spec §2): the stores screen, the marketplace's callback routes
 * /settings/store/add/{platform}/create and /settings/store/edit/{platform}/update (re-authorising a linked shop is
 * the same exchange: the API reconnects the store it finds), and the result page they lead to. All need `marketplace_control`, the key
 * the store API asks for.
 */
const access = { permission: 'marketplace_control' } as const;
const callback = lazyScreen(() => import('./callback'));

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
    element: callback,
    access,
  },
  {
    path: 'settings/store/edit/:platform/update',
    titleKey: 'stores:callback.title',
    element: callback,
    access,
  },
  {
    path: 'settings/store/result',
    titleKey: 'stores:result.title',
    element: lazyScreen(() => import('./result')),
    access,
  },
];
