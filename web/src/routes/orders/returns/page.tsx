import { RETURNS_ENDPOINT, RETURNS_VIEW, type ReturnRow } from '@web/api/returns';
import { DataGrid, useLiveGrid } from '@web/components/data-grid';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader, SearchToolbar } from '@web/shell/page';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReturnForm } from './return-form';
import '@web/routes/management.css';
import '../print/printing.css';

/**
 * Orders → Return reconciliation (spec §2 "return", /orders/return-reconciliation): the returns of the account,
 * newest first — order, tracking number, return to stock or write off, the refund, how much came back and how much
 * went back into stock, who recorded it — and a new return. Follows the live view `orderReturns`.
 */

function useColumns(): ColDef<ReturnRow>[] {
  const { t, i18n } = useTranslation('returns');
  const when = useDateTime();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    return [
      {
        colId: 'created_at',
        headerName: t('list.columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'order_number',
        headerName: t('list.columns.order_number'),
        valueGetter: ({ data }) => data?.order_number ?? '',
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'tracking_number',
        headerName: t('list.columns.tracking_number'),
        valueGetter: ({ data }) => data?.tracking_number ?? '',
        minWidth: 140,
      },
      {
        colId: 'action',
        headerName: t('list.columns.action'),
        valueGetter: ({ data }) => (data ? t(`actions.${data.action}`) : ''),
        minWidth: 130,
      },
      {
        colId: 'total_quantity',
        headerName: t('list.columns.quantity'),
        valueGetter: ({ data }) => (data ? `${data.total_quantity} / ${data.restocked_quantity}` : ''),
        headerTooltip: t('list.columns.quantity_hint'),
        sortable: true,
        type: 'rightAligned',
        minWidth: 120,
      },
      {
        colId: 'refund_to_buyer',
        headerName: t('list.columns.refund_to_buyer'),
        valueGetter: ({ data }) =>
          data
            ? `${data.currency} ${number.format(Number(data.refund_to_buyer))}${data.include_shipping ? ` ${t('list.with_shipping')}` : ''}`
            : '',
        sortable: true,
        minWidth: 160,
      },
      {
        colId: 'refund_reason',
        headerName: t('list.columns.refund_reason'),
        valueGetter: ({ data }) => data?.refund_reason ?? '',
        flex: 1,
        minWidth: 160,
      },
      {
        colId: 'created_by',
        headerName: t('list.columns.created_by'),
        valueGetter: ({ data }) => data?.created_by?.name ?? '',
        minWidth: 130,
      },
    ] satisfies ColDef<ReturnRow>[];
  }, [t, i18n.language, when]);
}

export default function ReturnsPage() {
  const { t } = useTranslation('returns');
  const notify = useNotify();
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const grid = useLiveGrid(RETURNS_VIEW);
  const columns = useColumns();
  return (
    <div className="page management-page">
      <PageHeader title={t('list.title')} intro={t('list.intro')}>
        <button type="button" className="button button-primary" onClick={() => setCreating(true)}>
          {t('list.add')}
        </button>
      </PageHeader>
      <SearchToolbar
        label={t('list.search_label')}
        placeholder={t('list.search_placeholder')}
        value={search}
        onChange={setSearch}
      />
      <DataGrid<ReturnRow>
        gridId="orders.returns"
        endpoint={RETURNS_ENDPOINT}
        columns={columns}
        label={t('list.grid_label')}
        search={search}
        getRowId={(row) => row.id}
        handle={grid}
      />
      {creating && (
        <ReturnForm
          onClose={() => setCreating(false)}
          onSaved={(message) => {
            setCreating(false);
            notify({ kind: 'success', message });
            grid.current?.refresh();
          }}
        />
      )}
    </div>
  );
}
