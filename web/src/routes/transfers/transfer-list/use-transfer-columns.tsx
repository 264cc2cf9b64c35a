import { TRANSFER_STATUSES, type TransferRow } from '@web/api/transfers';
import { dateTimeFormatter } from '@web/routes/inventory/components/fields';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn, createdAtColumn, leadingColumns, RowButton } from '../components/document-columns';

export interface TransferRowActions {
  onView(row: TransferRow): void;
  onShip(row: TransferRow): void;
  onReceive(row: TransferRow): void;
  canManage: boolean;
}

function ActionsCell({ data, actions }: ICellRendererParams<TransferRow> & { actions: TransferRowActions }) {
  if (!data) return null;
  return (
    <div className="grid-actions">
      <RowButton row={data} action="view" onClick={() => actions.onView(data)} />
      {actions.canManage && data.status === 'pending' && (
        <RowButton row={data} action="ship" tone="button-primary" onClick={() => actions.onShip(data)} />
      )}
      {actions.canManage && data.status === 'in_transit' && (
        <RowButton
          row={data}
          action="receive"
          tone="button-primary"
          onClick={() => actions.onReceive(data)}
        />
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
      ...leadingColumns<TransferRow>(t, TRANSFER_STATUSES),
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
      createdAtColumn<TransferRow>(t, when),
      actionsColumn(t, ActionsCell, actions, 200),
    ] satisfies ColDef<TransferRow>[];
  }, [t, i18n.language, actions]);
}
