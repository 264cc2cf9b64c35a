import { REQUEST_STATUSES, type RequestRow } from '@web/api/transfers';
import { dateTimeFormatter } from '@web/routes/inventory/components/fields';
import { choiceFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusBadge } from '../components/status-badge';
import { placeLabel } from '../request-detail';

export interface RequestRowActions {
  onView(row: RequestRow): void;
  onApprove(row: RequestRow): void;
  onReject(row: RequestRow): void;
  onCancel(row: RequestRow): void;
  canApprove: boolean;
  canManage: boolean;
}

function ActionsCell({ data, actions }: ICellRendererParams<RequestRow> & { actions: RequestRowActions }) {
  const { t } = useTranslation('transfers');
  if (!data) return null;
  const pending = data.status === 'pending';
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
      {pending && actions.canApprove && (
        <>
          <button
            type="button"
            className="button button-small button-primary"
            aria-label={named('actions.approve_named')}
            onClick={() => actions.onApprove(data)}
          >
            {t('actions.approve')}
          </button>
          <button
            type="button"
            className="button button-small"
            aria-label={named('actions.reject_named')}
            onClick={() => actions.onReject(data)}
          >
            {t('actions.reject')}
          </button>
        </>
      )}
      {pending && actions.canManage && (
        <button
          type="button"
          className="button button-small button-danger-outline"
          aria-label={named('actions.cancel_named')}
          onClick={() => actions.onCancel(data)}
        >
          {t('actions.cancel')}
        </button>
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
      {
        colId: 'reference',
        field: 'reference',
        headerName: t('columns.reference'),
        sortable: true,
        minWidth: 150,
        ...textFilter<RequestRow>(),
      },
      {
        colId: 'from',
        headerName: t('columns.from'),
        valueGetter: ({ data }) => (data ? placeLabel(data.from_warehouse) : ''),
        sortable: true,
        minWidth: 170,
        ...textFilter<RequestRow>(),
      },
      {
        colId: 'to',
        headerName: t('columns.to'),
        valueGetter: ({ data }) => (data ? placeLabel(data.to_warehouse) : ''),
        sortable: true,
        minWidth: 170,
        ...textFilter<RequestRow>(),
      },
      {
        colId: 'status',
        headerName: t('columns.status'),
        cellRenderer: ({ data }: ICellRendererParams<RequestRow>) =>
          data ? <StatusBadge status={data.status} /> : null,
        sortable: true,
        minWidth: 130,
        ...choiceFilter<RequestRow>({
          label: t('filters.status'),
          anyLabel: t('filters.any'),
          choices: REQUEST_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
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
        colId: 'created_by',
        headerName: t('columns.requested_by'),
        valueGetter: ({ data }) => data?.created_by?.name ?? '',
        minWidth: 140,
      },
      {
        colId: 'created_at',
        headerName: t('columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'remark',
        field: 'remark',
        headerName: t('columns.remark'),
        flex: 1,
        minWidth: 160,
        ...textFilter<RequestRow>(),
      },
      {
        colId: 'actions',
        headerName: t('columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: 260,
        width: 260,
      },
    ] satisfies ColDef<RequestRow>[];
  }, [t, i18n.language, actions]);
}
