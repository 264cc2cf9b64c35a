import { GOODS_RECEIPTS_VIEW } from '@domain/shared/live-views';
import { withQuery } from '@web/api/client';
import {
  GOODS_RECEIPT_STATUSES,
  GOODS_RECEIPTS_ENDPOINT,
  type GoodsReceiptListRow,
  MANAGE_KEY,
  useGoodsReceiptAction,
} from '@web/api/purchases';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { StatusFilter } from '@web/components/status-filter';
import { messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { GrnStatusBadge } from './parts';

/**
 * Goods receive notes: every note of the account, newest first, by status (1 Pending … 6 Reject) and search (GRN
 * number, PO number, reference, supplier), each linking to its note and its order, with quick approve and receive
 * actions. A note is opened from its purchase order. It follows the live view `goodsReceipts`: a note approved or received anywhere refreshes the rows.
 */

function NumberCell({ data }: ICellRendererParams<GoodsReceiptListRow>) {
  const { t } = useTranslation('purchases');
  if (!data) return null;
  return (
    <Link
      to={`/inventory/goods-receive-notes/${data.id}`}
      aria-label={t('grn_list.open_named', { number: data.grn_number })}
    >
      {data.grn_number}
    </Link>
  );
}

function OrderCell({ data }: ICellRendererParams<GoodsReceiptListRow>) {
  return data ? <Link to={`/purchases/detail/${data.purchase_id}`}>{data.po_number}</Link> : null;
}

function StatusCell({ data }: ICellRendererParams<GoodsReceiptListRow>) {
  return data ? <GrnStatusBadge status={data.status} /> : null;
}

/**
 * The quick actions of a row: approve a note waiting for approval (not one the user created, unless the owner) and
 * receive one pending or approved. Rejecting and cancelling ask for a reason on the note's page.
 */
function ActionsCell({ data }: ICellRendererParams<GoodsReceiptListRow>) {
  const { t } = useTranslation('purchases');
  const { can, isOwner, user } = useSession();
  const notify = useNotify();
  const act = useGoodsReceiptAction();
  if (!data || !can(MANAGE_KEY)) return null;
  const run = async (action: 'approve' | 'receive') => {
    try {
      const answer = await act.mutateAsync({ id: data.id, action });
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  };
  const mayApprove = data.status === 4 && (isOwner || data.created_by.id !== user?.id);
  const mayReceive = data.status === 1 || data.status === 5;
  return (
    <span className="purchase-actions">
      {mayApprove && (
        <button
          type="button"
          className="button button-secondary"
          disabled={act.isPending}
          aria-label={t('grn_list.approve_named', { number: data.grn_number })}
          onClick={() => run('approve')}
        >
          {t('actions.approve')}
        </button>
      )}
      {mayReceive && (
        <button
          type="button"
          className="button button-secondary"
          disabled={act.isPending}
          aria-label={t('grn_list.receive_named', { number: data.grn_number })}
          onClick={() => run('receive')}
        >
          {t('actions.receive_note')}
        </button>
      )}
    </span>
  );
}

function useColumns(): ColDef<GoodsReceiptListRow>[] {
  const { t, i18n } = useTranslation('purchases');
  const when = useDateTime();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const count = (field: 'received' | 'damaged' | 'returned') => ({
      colId: field,
      headerName: t(`lines.${field === 'returned' ? 'returned_on_receipt' : field}`),
      valueGetter: ({ data }: { data: GoodsReceiptListRow | undefined }) =>
        data ? number.format(data[field]) : '',
      sortable: true,
      type: 'rightAligned',
      minWidth: 100,
    });
    return [
      {
        colId: 'grn_number',
        headerName: t('grn_list.columns.grn_number'),
        cellRenderer: NumberCell,
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'po_number',
        headerName: t('grn_list.columns.po_number'),
        cellRenderer: OrderCell,
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'status',
        headerName: t('grn_list.columns.status'),
        cellRenderer: StatusCell,
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'supplier_name',
        field: 'supplier_name',
        headerName: t('grn_list.columns.supplier'),
        sortable: true,
        flex: 1,
        minWidth: 150,
      },
      {
        colId: 'warehouse_name',
        field: 'warehouse_name',
        headerName: t('grn_list.columns.warehouse'),
        sortable: true,
        minWidth: 130,
      },
      count('received'),
      count('damaged'),
      count('returned'),
      {
        colId: 'created_by',
        headerName: t('grn_list.columns.created_by'),
        valueGetter: ({ data }) => data?.created_by.name ?? '',
        minWidth: 120,
      },
      {
        colId: 'approved_by',
        headerName: t('grn_list.columns.approved_by'),
        valueGetter: ({ data }) => data?.approved_by?.name ?? '',
        minWidth: 120,
      },
      {
        colId: 'created_at',
        headerName: t('grn_list.columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'actions',
        headerName: t('grn_list.columns.actions'),
        cellRenderer: ActionsCell,
        minWidth: 200,
        pinned: 'right',
      },
    ] satisfies ColDef<GoodsReceiptListRow>[];
  }, [t, i18n.language, when]);
}

export default function GoodsReceiptListPage() {
  const { t } = useTranslation('purchases');
  const [status, setStatus] = useState('');
  return (
    <GridScreen<GoodsReceiptListRow>
      namespace="purchases"
      prefix="grn_list"
      gridId="purchases.goods-receive-notes"
      endpoint={withQuery(GOODS_RECEIPTS_ENDPOINT, { status: status || undefined })}
      useColumns={useColumns}
      className="purchase-page"
      live={GOODS_RECEIPTS_VIEW}
      filters={
        <StatusFilter
          label={t('list.status_filter')}
          allLabel={t('list.all_statuses')}
          className="purchase-filter"
          value={status}
          onChange={setStatus}
          options={GOODS_RECEIPT_STATUSES.map((value) => ({
            value: String(value),
            label: t(`grn_status.${value}`),
          }))}
        />
      }
    />
  );
}
