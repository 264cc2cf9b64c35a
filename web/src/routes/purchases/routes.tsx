import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Purchasing (issue 5; spec §2 /purchases/: list, add, supplier, bulk-upload; goods receive notes): purchase orders
 * with their detail (receive through a goods receive note, the PDF, the timeline), suppliers, the bulk file and its
 * upload history, and the goods receive notes with their approval actions. Viewing needs purchases-index, changing
 * purchases-manage.
 */
const view = { permission: 'purchases-index' } as const;
const manage = { permission: 'purchases-manage' } as const;

export const purchaseRoutes: ModuleRoute[] = [
  {
    path: 'purchases/list',
    titleKey: 'purchases:list.title',
    element: lazyScreen(() => import('./list-page')),
    access: view,
    menu: { section: 'purchases', labelKey: 'purchases:nav.list' },
  },
  {
    path: 'purchases/add',
    titleKey: 'purchases:form.title',
    element: lazyScreen(() => import('./form-page')),
    access: manage,
    menu: { section: 'purchases', labelKey: 'purchases:nav.add' },
  },
  {
    path: 'purchases/detail/:id',
    titleKey: 'purchases:detail.page_title',
    element: lazyScreen(() => import('./detail-page')),
    access: view,
  },
  {
    path: 'purchases/supplier',
    titleKey: 'purchases:suppliers.title',
    element: lazyScreen(() => import('./supplier-page')),
    access: view,
    menu: { section: 'purchases', labelKey: 'purchases:nav.supplier' },
  },
  {
    path: 'purchases/bulk-upload',
    titleKey: 'purchases:upload.title',
    element: lazyScreen(() => import('./bulk-upload-page')),
    access: manage,
    menu: { section: 'purchases', labelKey: 'purchases:nav.bulk_upload' },
  },
  {
    path: 'purchases/upload-history',
    titleKey: 'uploads:purchase.title',
    element: lazyScreen(() => import('./upload-history-page')),
    access: manage,
    menu: { section: 'purchases', labelKey: 'uploads:nav.purchase' },
  },
  {
    path: 'inventory/goods-receive-notes',
    titleKey: 'purchases:grn_list.title',
    element: lazyScreen(() => import('./grn-list-page')),
    access: view,
    menu: { section: 'purchases', labelKey: 'purchases:nav.goods_receive_notes' },
  },
  {
    path: 'inventory/goods-receive-notes/:id',
    titleKey: 'purchases:grn.page_title',
    element: lazyScreen(() => import('./grn-detail-page')),
    access: view,
  },
];
