import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Product listings (spec §2 /products/: listings, draft-listings, listings-bulk; issue 15): the list with the status
 * filter, the drafts, the editor (a new listing, or one by id) and the bulk edit. Viewing needs listings-index,
 * changing listings-manage.
 */
const view = { permission: 'listings-index' } as const;
const manage = { permission: 'listings-manage' } as const;

export const productRoutes: ModuleRoute[] = [
  {
    path: 'products/listings',
    titleKey: 'listings:list.title',
    element: lazyScreen(() => import('./list-page')),
    access: view,
    menu: { section: 'products', labelKey: 'listings:nav.listings' },
  },
  {
    path: 'products/draft-listings',
    titleKey: 'listings:drafts.title',
    element: lazyScreen(() => import('./drafts-page')),
    access: view,
    menu: { section: 'products', labelKey: 'listings:nav.drafts' },
  },
  {
    path: 'products/listings/:id',
    titleKey: 'listings:editor.title',
    element: lazyScreen(() => import('./editor-page')),
    access: view,
  },
  {
    path: 'products/listings-bulk',
    titleKey: 'listings:bulk.title',
    element: lazyScreen(() => import('./bulk-page')),
    access: manage,
    menu: { section: 'products', labelKey: 'listings:nav.bulk' },
  },
];
