import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/** The provider's admin area (spec §2, /admin-settings/). */
export const adminRoutes: ModuleRoute[] = [
  {
    path: 'admin-settings/announcement',
    titleKey: 'admin:announcements.title',
    element: lazyScreen(() => import('./announcement/page')),
    access: 'admin',
    menu: { section: 'admin', labelKey: 'admin:nav.announcements' },
  },
  {
    path: 'admin-reports',
    titleKey: 'admin:reports.title',
    element: lazyScreen(() => import('./reports/page')),
    access: 'admin',
    menu: { section: 'admin', labelKey: 'admin:nav.reports' },
  },
];
