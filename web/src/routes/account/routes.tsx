import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Account and team: the header menu's user settings, Settings → company, and the account's audit screens at the
 * spec's paths (`/user-activities-logs`, `/login_access/list`, both under the `activity-logs` key).
 */
export const accountRoutes: ModuleRoute[] = [
  {
    path: 'settings/user-detail',
    titleKey: 'account:profile.title',
    element: lazyScreen(() => import('./profile-page')),
    access: 'seller',
  },
  {
    path: 'settings/company',
    titleKey: 'account:company.title',
    element: lazyScreen(() => import('./company-page')),
    access: 'owner',
    menu: { section: 'settings', labelKey: 'account:nav.company' },
  },
  {
    path: 'settings/userlist',
    titleKey: 'account:userlist.title',
    element: lazyScreen(() => import('@web/routes/settings/users/page')),
    access: 'owner',
  },
  {
    path: 'user-activities-logs',
    titleKey: 'account:activity.title',
    element: lazyScreen(() => import('./activity-page')),
    access: { permission: 'activity-logs' },
    menu: { section: 'settings', labelKey: 'account:nav.activity' },
  },
  {
    path: 'login_access/list',
    titleKey: 'account:sign_ins.title',
    element: lazyScreen(() => import('./sign-ins-page')),
    access: { permission: 'activity-logs' },
    menu: { section: 'settings', labelKey: 'account:nav.sign_ins' },
  },
];
