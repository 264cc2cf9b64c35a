import { REQUEST_STATUSES, type RequestRow } from '@web/api/transfers';
import { dateTimeFormatter } from '@web/routes/inventory/components/fields';
import { textFilter } from '@web/routes/inventory/components/grid-filters';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { actionsColumn, createdAtColumn, leadingColumns, RowButton } from '../components/document-columns';

export interface RequestRowActions {
  onView(row: RequestRow): void;
  onApprove(row: RequestRow): void;
  onReject(row: RequestRow): void;
  onCancel(row: RequestRow): void;
  canApprove: boolean;
  canManage: boolean;
}

function ActionsCell({ data, actions }: ICellRendererParams<RequestRow> & { actions: RequestRowActions }) {
  if (!data) return null;
  const pending = data.status === 'pending';
  return (
    <div className="grid-actions">
      <RowButton row={data} action="view" onClick={() => actions.onView(data)} />
      {pending && actions.canApprove && (
        <>
          <RowButton
            row={data}
            action="approve"
            tone="button-primary"
            onClick={() => actions.onApprove(data)}
          />
          <RowButton row={data} action="reject" onClick={() => actions.onReject(data)} />
        </>
      )}
      {pending && actions.canManage && (
        <RowButton
          row={data}
          action="cancel"
          tone="button-danger-outline"
          onClick={() => actions.onCancel(data)}
        />
      )}
    </div>
  );
}

/** The request grid's columns; sorts and filters are those of the requests endpoint. */
export function useRequestColumns(actions: RequestRowActions): ColDef<RequestRow>[] {
  const { t, i18n } = useTranslation('transfers');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    return [
      ...leadingColumns<RequestRow>(t, REQUEST_STATUSES),
      {
        colId: 'created_by',
        headerName: t('columns.requested_by'),
        valueGetter: ({ data }) => data?.created_by?.name ?? '',
        minWidth: 140,
      },
      createdAtColumn<RequestRow>(t, when),
      {
        colId: 'remark',
        field: 'remark',
        headerName: t('columns.remark'),
        flex: 1,
        minWidth: 160,
        ...textFilter<RequestRow>(),
      },
      actionsColumn(t, ActionsCell, actions, 260),
    ] satisfies ColDef<RequestRow>[];
  }, [t, i18n.language, actions]);
}
