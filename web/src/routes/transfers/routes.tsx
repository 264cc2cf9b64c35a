import type { ModuleRoute } from '@web/routes/types';
import { lazyScreen } from '@web/shell/lazy-screen';

/**
 * Transfer stock (spec §2 /transfer-stock/: list-transfer, list-request; issue 5). Either screen is for a user
 * holding any of the three transfer keys of spec §6; what each may do there follows their keys.
 */
const TRANSFER_KEYS = ['transfer-manage-request', 'transfer-approve-request', 'transfer-manage-transfer'];

export const transferRoutes: ModuleRoute[] = [
  {
    path: 'transfer-stock/list-request',
    titleKey: 'transfers:requests.title',
    element: lazyScreen(() => import('./request-list/page')),
    access: { anyPermission: TRANSFER_KEYS },
    menu: { section: 'transfers', labelKey: 'transfers:nav.requests' },
  },
  {
    path: 'transfer-stock/list-transfer',
    titleKey: 'transfers:transfers.title',
    element: lazyScreen(() => import('./transfer-list/page')),
    access: { anyPermission: TRANSFER_KEYS },
    menu: { section: 'transfers', labelKey: 'transfers:nav.transfers' },
  },
];
