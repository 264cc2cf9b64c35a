import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * The seller's management screens: announcements, the web store's categories, and under settings the sub-users,
 * their groups' permissions and the other platforms' categories (spec §2).
 */

const platformCategories = lazyScreen(() => import('./category/page'));

export const settingsRoutes: ModuleRoute[] = [
  {
    path: 'announcements',
    titleKey: 'announcements:title',
    element: lazyScreen(() => import('@web/routes/announcements/list/page')),
    access: 'seller',
    menu: { section: 'main', labelKey: 'announcements:nav' },
  },
  {
    path: 'webstore/category',
    titleKey: 'settings:categories.webstore_title',
    element: lazyScreen(() => import('@web/routes/webstore/category/page')),
    access: { permission: 'listings-index' },
    menu: { section: 'main', labelKey: 'settings:nav.webstore_category' },
  },
  {
    path: 'settings/users',
    titleKey: 'settings:users.title',
    element: lazyScreen(() => import('./users/page')),
    access: 'owner',
    module: 'userLevelModule',
    menu: { section: 'settings', labelKey: 'settings:nav.users' },
  },
  {
    path: 'settings/group-permissions',
    titleKey: 'settings:groups.title',
    element: lazyScreen(() => import('./group-permissions/page')),
    access: 'owner',
    module: 'userLevelModule',
    menu: { section: 'settings', labelKey: 'settings:nav.group_permissions' },
  },
  {
    path: 'settings/apps',
    titleKey: 'apps:title',
    element: lazyScreen(() => import('./apps/page')),
    access: { permission: 'appstore' },
    menu: { section: 'settings', labelKey: 'apps:nav' },
  },
  {
    path: 'settings/category',
    titleKey: 'settings:categories.title',
    element: platformCategories,
    access: { permission: 'listings-index' },
    menu: { section: 'settings', labelKey: 'settings:nav.categories' },
  },
  {
    path: 'settings/webhooks',
    titleKey: 'webhooks:title',
    element: lazyScreen(() => import('./webhooks/page')),
    access: { permission: 'appstore' },
    menu: { section: 'settings', labelKey: 'webhooks:nav' },
  },
  {
    path: 'settings/webhooks/:id',
    titleKey: 'webhooks:log.nav_title',
    element: lazyScreen(() => import('./webhooks/deliveries-page')),
    access: { permission: 'appstore' },
  },
  {
    path: 'settings/category/:platform',
    titleKey: 'settings:categories.title',
    element: platformCategories,
    access: { permission: 'listings-index' },
  },
];
