import { useSession } from '@web/auth/session';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import Forbidden from '@web/routes/forbidden';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { PlaceSelect } from '../inventory/stock-common/place-select';
import { useLiveRefresh } from '../inventory/stock-common/use-live-refresh';
import {
  GIN_ENDPOINT,
  GIN_STATUSES,
  GIN_VIEW,
  type GinRow,
  MANAGE_KEY,
  mayViewGoodsIssues,
  withQuery,
} from './api';
import { NoteForm } from './note-form';
import { StatusBadge, useDateTime } from './parts';
import { ApprovalSettingsPanel } from './settings-panel';
import '@web/routes/management.css';

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
  const statusId = useId();
  const waitingId = useId();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const [warehouseId, setWarehouseId] = useState('');
  const [waitingForMe, setWaitingForMe] = useState(false);
  const [creating, setCreating] = useState(false);
  const columns = useColumns();
  useLiveRefresh(
    GIN_VIEW,
    useCallback(() => grid.current?.refresh(), []),
  );
  if (!mayViewGoodsIssues(can)) return <Forbidden />;

  const endpoint = withQuery(GIN_ENDPOINT, {
    status: status || undefined,
    warehouse_id: warehouseId || undefined,
    waiting_for_me: waitingForMe || undefined,
  });

  return (
    <div className="page management-page gin-page">
      <PageHeader title={t('list.title')} intro={t('list.intro')}>
        {can(MANAGE_KEY) && (
          <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
            {t('list.add')}
          </button>
        )}
      </PageHeader>
      <ApprovalSettingsPanel />
      <SearchToolbar
        label={t('list.search_label')}
        placeholder={t('list.search_placeholder')}
        value={search}
        onChange={setSearch}
      >
        <label htmlFor={statusId} className="visually-hidden">
          {t('list.status_filter')}
        </label>
        <select
          id={statusId}
          className="input"
          value={status}
          onChange={(event) => setStatus(event.target.value)}
        >
          <option value="">{t('list.all_statuses')}</option>
          {GIN_STATUSES.map((value) => (
            <option key={value} value={String(value)}>
              {t(`status.${value}`)}
            </option>
          ))}
        </select>
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
      </SearchToolbar>
      <DataGrid<GinRow>
        gridId="inventory.goods-issue-notes"
        endpoint={endpoint}
        columns={columns}
        label={t('list.grid_label')}
        search={search}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {creating && (
        <NoteForm
          onClose={() => setCreating(false)}
          onSaved={(note) => {
            setCreating(false);
            navigate(`/inventory/goods-issue-notes/${note.id}`);
          }}
        />
      )}
    </div>
  );
}
