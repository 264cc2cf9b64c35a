import { LIVE_VIEWS } from '@domain/shared/live-views';
import { useQueryClient } from '@tanstack/react-query';
import { REQUESTS_ENDPOINT, type RequestRow, requestKeys, useRequestAction } from '@web/api/transfers';
import { useSession } from '@web/auth/session';
import type { DataGridHandle } from '@web/components/data-grid';
import { GridScreen } from '@web/components/grid-screen';
import Forbidden from '@web/routes/forbidden';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useRowAction } from '../components/use-row-action';
import { DocumentForm } from '../document-form';
import { RequestDetailDialog } from '../request-detail';
import { useRequestColumns } from './use-request-columns';
import '@web/routes/inventory/stock-common/stock.css';
import '../transfers.css';

/**
 * Transfer stock → requests (/transfer-stock/list-request): the account's transfer requests, filtered by status,
 * place and search, with their actions by state; a new request in a dialog. The list follows the live view
 * `transferRequests`, so an approval in another browser shows here without a reload.
 */
export default function RequestListPage() {
  const { can } = useSession();
  const queryClient = useQueryClient();
  const grid = useRef<DataGridHandle>(null);
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
    <GridScreen<RequestRow>
      namespace="transfers"
      prefix="requests"
      gridId="transfers.requests"
      endpoint={REQUESTS_ENDPOINT}
      useColumns={() => columns}
      className="transfer-page"
      grid={grid}
      live={LIVE_VIEWS.transferRequests}
      onLive={() => void queryClient.invalidateQueries({ queryKey: requestKeys.lists() })}
      form={
        canManage
          ? ({ onClose, onSaved }) => <DocumentForm kind="request" onClose={onClose} onSaved={onSaved} />
          : undefined
      }
    >
      {open && <RequestDetailDialog id={open.id} intent={open.intent} onClose={() => setOpen(null)} />}
    </GridScreen>
  );
}
