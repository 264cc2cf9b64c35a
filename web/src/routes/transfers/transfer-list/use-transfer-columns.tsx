import { TRANSFER_STATUSES, type TransferRow } from '@web/api/transfers';
import { dateTimeFormatter } from '@web/routes/inventory/components/fields';
import { choiceFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../components/status-badge';
import { placeLabel } from '../request-detail';

export interface TransferRowActions {
  onView(row: TransferRow): void;
  onShip(row: TransferRow): void;
  onReceive(row: TransferRow): void;
  canManage: boolean;
}

function ActionsCell({ data, actions }: ICellRendererParams<TransferRow> & { actions: TransferRowActions }) {
  const { t } = useTranslation('transfers');
  if (!data) return null;
  const named = (key: string) => t(key, { reference: data.reference });
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={named('actions.view_named')}
        onClick={() => actions.onView(data)}
      >
        {t('actions.view')}
      </button>
      {actions.canManage && data.status === 'pending' && (
        <button
          type="button"
          className="button button-small button-primary"
          aria-label={named('actions.ship_named')}
          onClick={() => actions.onShip(data)}
        >
          {t('actions.ship')}
        </button>
      )}
      {actions.canManage && data.status === 'in_transit' && (
        <button
          type="button"
          className="button button-small button-primary"
          aria-label={named('actions.receive_named')}
          onClick={() => actions.onReceive(data)}
        >
          {t('actions.receive')}
        </button>
      )}
    </div>
  );
}

/** The transfer grid's columns; sorts and filters are those of the transfers endpoint. */
export function useTransferColumns(actions: TransferRowActions): ColDef<TransferRow>[] {
  const { t, i18n } = useTranslation('transfers');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    const person = (value: TransferRow['shipped_by'], at: string | null) =>
      at ? `${value?.name ?? ''} · ${when(at)}` : '';
    return [
      {
        colId: 'reference',
        field: 'reference',
        headerName: t('columns.reference'),
        sortable: true,
        minWidth: 150,
        ...textFilter<TransferRow>(),
      },
      {
        colId: 'from',
        headerName: t('columns.from'),
        valueGetter: ({ data }) => (data ? placeLabel(data.from_warehouse) : ''),
        sortable: true,
        minWidth: 170,
        ...textFilter<TransferRow>(),
      },
      {
        colId: 'to',
        headerName: t('columns.to'),
        valueGetter: ({ data }) => (data ? placeLabel(data.to_warehouse) : ''),
        sortable: true,
        minWidth: 170,
        ...textFilter<TransferRow>(),
      },
      {
        colId: 'status',
        headerName: t('columns.status'),
        cellRenderer: ({ data }: ICellRendererParams<TransferRow>) =>
          data ? <StatusBadge status={data.status} /> : null,
        sortable: true,
        minWidth: 130,
        ...choiceFilter<TransferRow>({
          label: t('filters.status'),
          anyLabel: t('filters.any'),
          choices: TRANSFER_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
        }),
      },
      {
        colId: 'total_quantity',
        headerName: t('columns.items'),
        valueGetter: ({ data }) =>
          data ? t('columns.items_value', { lines: data.line_count, quantity: data.total_quantity }) : '',
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'in_transit_quantity',
        field: 'in_transit_quantity',
        headerName: t('columns.in_transit'),
        type: 'rightAligned',
        minWidth: 110,
      },
      {
        colId: 'received_quantity',
        field: 'received_quantity',
        headerName: t('columns.received'),
        type: 'rightAligned',
        sortable: true,
        minWidth: 110,
      },
      {
        colId: 'shipped_at',
        headerName: t('columns.shipped_by'),
        valueGetter: ({ data }) => (data ? person(data.shipped_by, data.shipped_at) : ''),
        sortable: true,
        minWidth: 190,
      },
      {
        colId: 'received_at',
        headerName: t('columns.received_by'),
        valueGetter: ({ data }) => (data ? person(data.received_by, data.received_at) : ''),
        sortable: true,
        minWidth: 190,
      },
      {
        colId: 'created_at',
        headerName: t('columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'actions',
        headerName: t('columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: 200,
        width: 200,
      },
    ] satisfies ColDef<TransferRow>[];
  }, [t, i18n.language, actions]);
}
