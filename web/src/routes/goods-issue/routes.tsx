import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Goods issue notes (issue 5): the list with the approval settings, and one note with its actions. Any seller user
 * may open them; the screens themselves show "forbidden" to a user holding neither an inventory key nor an
 * approval layer key (a route names a single key, and approvers may hold only their layer's).
 */
export const goodsIssueRoutes: ModuleRoute[] = [
  {
    path: 'inventory/goods-issue-notes',
    titleKey: 'goods-issue:list.title',
    element: lazyScreen(() => import('./list-page')),
    access: 'seller',
    menu: { section: 'inventory', labelKey: 'goods-issue:nav.list' },
  },
  {
    path: 'inventory/goods-issue-notes/:id',
    titleKey: 'goods-issue:detail.page_title',
    element: lazyScreen(() => import('./detail-page')),
    access: 'seller',
  },
];
