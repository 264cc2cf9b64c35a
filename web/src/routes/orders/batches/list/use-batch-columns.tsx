import type { BatchAnswer } from '@api/contracts/batches';
import { choiceFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import { dateFormatter, dateTimeFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

export interface BatchRowActions {
  onView(row: BatchAnswer): void;
  onPrint(row: BatchAnswer): void;
}

function ActionsCell({ data, actions }: ICellRendererParams<BatchAnswer> & { actions: BatchRowActions }) {
  const { t } = useTranslation('batches');
  if (!data) return null;
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('actions.view_named', { label: data.label })}
        onClick={() => actions.onView(data)}
      >
        {t('actions.view')}
      </button>
      <button
        type="button"
        className="button button-small"
        aria-label={t('actions.print_named', { label: data.label })}
        onClick={() => actions.onPrint(data)}
      >
        {t('actions.print')}
      </button>
    </div>
  );
}

function ProgressCell({ data }: ICellRendererParams<BatchAnswer>) {
  const { t } = useTranslation('batches');
  if (!data) return null;
  const percent = data.total_orders ? Math.round((data.scanned_orders / data.total_orders) * 100) : 0;
  return (
    <div
      className="batch-progress"
      title={t('columns.progress_value', { scanned: data.scanned_orders, count: data.total_orders })}
    >
      <progress max={data.total_orders || 1} value={data.scanned_orders} aria-label={t('columns.progress')} />
      <span>
        {data.scanned_orders}/{data.total_orders} ({percent}%)
      </span>
    </div>
  );
}

/** The batch grid's columns; sorts and filters are those of GET /api/orders/batches. */
export function useBatchColumns(actions: BatchRowActions): ColDef<BatchAnswer>[] {
  const { t, i18n } = useTranslation('batches');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    const day = dateFormatter(i18n.language);
    return [
      {
        colId: 'label',
        field: 'label',
        headerName: t('columns.label'),
        sortable: true,
        minWidth: 120,
        ...textFilter<BatchAnswer>(),
      },
      {
        colId: 'name',
        field: 'name',
        headerName: t('columns.name'),
        sortable: true,
        minWidth: 160,
        ...textFilter<BatchAnswer>(),
      },
      {
        colId: 'type',
        headerName: t('columns.type'),
        valueGetter: ({ data }) => (data ? t(`type.${data.type}`) : ''),
        sortable: true,
        minWidth: 110,
        ...choiceFilter<BatchAnswer>({
          label: t('columns.type'),
          anyLabel: t('filters.any'),
          choices: (['normal', 'pre-order'] as const).map((value) => ({ value, label: t(`type.${value}`) })),
        }),
      },
      {
        colId: 'status',
        headerName: t('columns.status'),
        cellRenderer: ({ data }: ICellRendererParams<BatchAnswer>) =>
          data ? (
            <span className={`badge ${data.status === 'open' ? 'badge-new' : 'badge-muted'}`}>
              {t(`status.${data.status}`)}
            </span>
          ) : null,
        sortable: true,
        minWidth: 100,
        ...choiceFilter<BatchAnswer>({
          label: t('columns.status'),
          anyLabel: t('filters.any'),
          choices: (['open', 'closed'] as const).map((value) => ({ value, label: t(`status.${value}`) })),
        }),
      },
      {
        colId: 'group',
        headerName: t('columns.group'),
        valueGetter: ({ data }) => (data ? (data.group ?? '') : ''),
        minWidth: 140,
        ...textFilter<BatchAnswer>(),
      },
      {
        colId: 'total_orders',
        headerName: t('columns.progress'),
        cellRenderer: ProgressCell,
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'picker',
        headerName: t('columns.picker'),
        valueGetter: ({ data }) => data?.picker?.name ?? '',
        minWidth: 140,
      },
      {
        colId: 'date',
        field: 'date',
        headerName: t('columns.date'),
        valueFormatter: ({ value }) => day(value),
        sortable: true,
        minWidth: 120,
      },
      {
        colId: 'created_at',
        headerName: t('columns.created_at'),
        valueGetter: ({ data }) =>
          data
            ? `${when(data.created_at)} · ${data.source === 'auto' ? t('source.auto') : (data.created_by?.name ?? '')}`
            : '',
        sortable: true,
        minWidth: 200,
      },
      {
        colId: 'actions',
        headerName: t('columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: 170,
        width: 170,
      },
    ] satisfies ColDef<BatchAnswer>[];
  }, [t, i18n.language, actions]);
}
