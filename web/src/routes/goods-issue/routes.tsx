import { GOODS_ISSUE_VIEW_KEYS } from '@web/api/goods-issue';
import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Goods issue notes (issue 5): the list with the approval settings, and one note with its actions, for a user
 * holding an inventory key or an approval layer key (approvers may hold only their layer's).
 */
export const goodsIssueRoutes: ModuleRoute[] = [
  {
    path: 'inventory/goods-issue-notes',
    titleKey: 'goods-issue:list.title',
    element: lazyScreen(() => import('./list-page')),
    access: { anyPermission: GOODS_ISSUE_VIEW_KEYS },
    menu: { section: 'inventory', labelKey: 'goods-issue:nav.list' },
  },
  {
    path: 'inventory/goods-issue-notes/:id',
    titleKey: 'goods-issue:detail.page_title',
    element: lazyScreen(() => import('./detail-page')),
    access: { anyPermission: GOODS_ISSUE_VIEW_KEYS },
  },
];
