import { useQueryClient } from '@tanstack/react-query';
import { REQUESTS_ENDPOINT, type RequestRow, transferKeys, useRequestAction } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import Forbidden from '@web/routes/forbidden';
import { useLiveRefresh } from '@web/routes/inventory/stock-common/use-live-refresh';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
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
  const notify = useNotify();
  const queryClient = useQueryClient();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const [open, setOpen] = useState<{ id: string; intent?: 'reject' | 'cancel' } | null>(null);
  const approve = useRequestAction();
  const canApprove = can('transfer-approve-request');
  const canManage = can('transfer-manage-request');

  const onView = useCallback((row: RequestRow) => setOpen({ id: row.id }), []);
  const onReject = useCallback((row: RequestRow) => setOpen({ id: row.id, intent: 'reject' }), []);
  const onCancel = useCallback((row: RequestRow) => setOpen({ id: row.id, intent: 'cancel' }), []);
  const onApprove = useCallback(
    (row: RequestRow) => {
      approve.mutate(
        { id: row.id, action: 'approve' },
        {
          onSuccess: (answer) => {
            notify({ kind: 'success', message: answer.msg });
            grid.current?.refresh();
          },
          onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
        },
      );
    },
    [approve.mutate, notify],
  );
  const actions = useMemo(
    () => ({ onView, onApprove, onReject, onCancel, canApprove, canManage }),
    [onView, onApprove, onReject, onCancel, canApprove, canManage],
  );
  const columns = useRequestColumns(actions);

  useLiveRefresh(
    'transferRequests',
    useCallback(() => {
      grid.current?.refresh();
      void queryClient.invalidateQueries({ queryKey: transferKeys.requests() });
    }, [queryClient]),
  );

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
      <SearchToolbar
        label={t('requests.search_label')}
        placeholder={t('requests.search_placeholder')}
        value={search}
        onChange={setSearch}
      />
      <DataGrid<RequestRow>
        gridId="transfers.requests"
        endpoint={REQUESTS_ENDPOINT}
        columns={columns}
        label={t('requests.grid_label')}
        search={search}
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
