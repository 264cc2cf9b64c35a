import { useQueryClient } from '@tanstack/react-query';
import { REQUESTS_ENDPOINT, type RequestRow, requestKeys, useRequestAction } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import { SearchableGrid, useLiveGrid } from '@web/components/data-grid';
import Forbidden from '@web/routes/forbidden';
import { PageHeader } from '@web/shell/page';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRowAction } from '../components/use-row-action';
import { DocumentForm } from '../document-form';
import { RequestDetailDialog } from '../request-detail';
import { useRequestColumns } from './use-request-columns';
import '@web/routes/management.css';
import '@web/routes/inventory/stock-common/stock.css';
import '../transfers.css';

/**
 * Transfer stock → requests (/transfer-stock/list-request): the account's transfer requests, filtered by status,
 * place and search, with their actions by state; a new request in a dialog. The list follows the live view
 * `transferRequests`, so an approval in another browser shows here without a reload.
 */
export default function RequestListPage() {
  const { t } = useTranslation('transfers');
  const { can } = useSession();
  const queryClient = useQueryClient();
  const grid = useLiveGrid(
    'transferRequests',
    () => void queryClient.invalidateQueries({ queryKey: requestKeys.lists() }),
  );
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<{ id: string; intent?: 'reject' | 'cancel' } | null>(null);
  const canApprove = can('transfer-approve-request');
  const canManage = can('transfer-manage-request');

  const onView = useCallback((row: RequestRow) => setOpen({ id: row.id }), []);
  const onReject = useCallback((row: RequestRow) => setOpen({ id: row.id, intent: 'reject' }), []);
  const onCancel = useCallback((row: RequestRow) => setOpen({ id: row.id, intent: 'cancel' }), []);
  const onApprove = useRowAction(useRequestAction().mutate, 'approve', grid);
  const actions = useMemo(
    () => ({ onView, onApprove, onReject, onCancel, canApprove, canManage }),
    [onView, onApprove, onReject, onCancel, canApprove, canManage],
  );
  const columns = useRequestColumns(actions);

  if (!canApprove && !canManage) return <Forbidden />;
  return (
    <div className="page management-page transfer-page">
      <PageHeader title={t('requests.title')} intro={t('requests.intro')}>
        {canManage && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            {t('requests.add')}
          </button>
        )}
      </PageHeader>
      <SearchableGrid<RequestRow>
        searchLabel={t('requests.search_label')}
        searchPlaceholder={t('requests.search_placeholder')}
        gridId="transfers.requests"
        endpoint={REQUESTS_ENDPOINT}
        columns={columns}
        label={t('requests.grid_label')}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {creating && (
        <DocumentForm
          kind="request"
          onClose={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            grid.current?.refresh();
          }}
        />
      )}
      {open && <RequestDetailDialog id={open.id} intent={open.intent} onClose={() => setOpen(null)} />}
    </div>
  );
}
