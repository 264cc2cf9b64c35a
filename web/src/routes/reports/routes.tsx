import { REPORTS } from '@domain/reports/catalogue';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * The reports (issue 16, shell.md §2 `/reports/`): their index, grouped, and a screen per report (one component
 * reading which from its path), each titled with the report's name, for holders of the view-and-print report key.
 */

const access = { permission: 'pos-view-print-report' } as const;
const reportScreen = lazyScreen(() => import('./report-page'));

export const reportRoutes: ModuleRoute[] = [
  {
    path: 'reports',
    titleKey: 'reports:index_title',
    element: lazyScreen(() => import('./index-page')),
    access,
    menu: { section: 'main', labelKey: 'reports:nav' },
  },
  ...REPORTS.map((report) => ({
    path: `reports/${report.id}`,
    titleKey: `reports:titles.${report.id}`,
    element: reportScreen,
    access,
  })),
];
