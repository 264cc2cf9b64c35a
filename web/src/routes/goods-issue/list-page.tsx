import { withQuery } from '@web/api/client';
import {
  GIN_ENDPOINT,
  GIN_STATUSES,
  GIN_VIEW,
  type GinRow,
  MANAGE_KEY,
  mayViewGoodsIssues,
} from '@web/api/goods-issue';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { StatusFilter } from '@web/components/status-filter';
import Forbidden from '@web/routes/forbidden';
import { useDateTime } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PlaceSelect } from '../inventory/stock-common/place-select';
import { NoteForm } from './note-form';
import { StatusBadge } from './parts';
import { ApprovalSettingsPanel } from './settings-panel';

/**
 * Inventory → goods issue notes: every note of the account, newest first, filtered by status, warehouse, search,
 * or "waiting for me" (the notes whose waiting layer's key the user holds); a new note from here; the approval
 * settings above the list. It follows the live view `goodsIssues`: a note moving anywhere refreshes the rows.
 */

function StatusCell({ data }: ICellRendererParams<GinRow>) {
  const { t } = useTranslation('goods-issue');
  if (!data) return null;
  return (
    <span>
      <StatusBadge status={data.status} layer={data.current_layer} layers={data.layers} />
      {data.waiting_for_me && <span className="badge gin-flag gin-status-4">{t('list.waiting_badge')}</span>}
      {data.issue_failed && <span className="badge gin-flag gin-flag-failed">{t('list.failed_badge')}</span>}
    </span>
  );
}

function ReferenceCell({ data }: ICellRendererParams<GinRow>) {
  const { t } = useTranslation('goods-issue');
  if (!data) return null;
  return (
    <Link
      to={`/inventory/goods-issue-notes/${data.id}`}
      aria-label={t('list.open_named', { reference: data.reference })}
    >
      {data.reference}
    </Link>
  );
}

function useColumns(): ColDef<GinRow>[] {
  const { t, i18n } = useTranslation('goods-issue');
  const when = useDateTime();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    return [
      {
        colId: 'reference',
        headerName: t('list.columns.reference'),
        cellRenderer: ReferenceCell,
        sortable: true,
        minWidth: 140,
      },
      {
        colId: 'status',
        headerName: t('list.columns.status'),
        cellRenderer: StatusCell,
        sortable: true,
        minWidth: 260,
      },
      {
        colId: 'warehouse',
        headerName: t('list.columns.warehouse'),
        valueGetter: ({ data }) => (data ? `${data.warehouse.code} — ${data.warehouse.name}` : ''),
        sortable: true,
        minWidth: 150,
      },
      { colId: 'reason', field: 'reason', headerName: t('list.columns.reason'), flex: 1, minWidth: 160 },
      {
        colId: 'total_quantity',
        headerName: t('list.columns.quantity'),
        valueGetter: ({ data }) => (data ? number.format(data.total_quantity) : ''),
        sortable: true,
        type: 'rightAligned',
        minWidth: 100,
      },
      {
        colId: 'created_by',
        headerName: t('list.columns.created_by'),
        valueGetter: ({ data }) => data?.created_by.name ?? '',
        minWidth: 130,
      },
      {
        colId: 'created_at',
        headerName: t('list.columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 150,
      },
    ] satisfies ColDef<GinRow>[];
  }, [t, i18n.language, when]);
}

export default function GoodsIssueListPage() {
  const { t } = useTranslation('goods-issue');
  const { can } = useSession();
  const navigate = useNavigate();
  const waitingId = useId();
  const [status, setStatus] = useState('');
  const [warehouseId, setWarehouseId] = useState('');
  const [waitingForMe, setWaitingForMe] = useState(false);
  if (!mayViewGoodsIssues(can)) return <Forbidden />;

  const endpoint = withQuery(GIN_ENDPOINT, {
    status: status || undefined,
    warehouse_id: warehouseId || undefined,
    waiting_for_me: waitingForMe || undefined,
  });

  return (
    <GridScreen<GinRow>
      namespace="goods-issue"
      prefix="list"
      gridId="inventory.goods-issue-notes"
      endpoint={endpoint}
      useColumns={useColumns}
      className="gin-page"
      live={GIN_VIEW}
      above={<ApprovalSettingsPanel />}
      form={
        can(MANAGE_KEY)
          ? ({ onClose }) => (
              <NoteForm
                onClose={onClose}
                onSaved={(note) => navigate(`/inventory/goods-issue-notes/${note.id}`)}
              />
            )
          : undefined
      }
      filters={
        <>
          <StatusFilter
            label={t('list.status_filter')}
            allLabel={t('list.all_statuses')}
            value={status}
            onChange={setStatus}
            options={GIN_STATUSES.map((value) => ({ value: String(value), label: t(`status.${value}`) }))}
          />
          <div className="toolbar-field">
            <PlaceSelect
              label={t('list.warehouse_filter')}
              hideLabel
              value={warehouseId}
              onChange={(id) => setWarehouseId(id)}
              allLabel={t('list.all_warehouses')}
            />
          </div>
          <label htmlFor={waitingId} className="check-label">
            <input
              id={waitingId}
              type="checkbox"
              checked={waitingForMe}
              onChange={(event) => setWaitingForMe(event.target.checked)}
            />
            {t('list.waiting_for_me')}
          </label>
        </>
      }
    />
  );
}
