import type { RequestRow, TransferRow } from '@web/api/transfers';
import { choiceFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { placeLabel } from './document-dialog';
import { StatusBadge } from './status-badge';

/**
 * What the request and transfer grids share: their first columns (reference, from, to, status, items), when the
 * document was made, and the actions column with its "view" button; sorts and filters are those of the endpoints.
 */

type DocumentRow = RequestRow | TransferRow;

export function leadingColumns<Row extends DocumentRow>(
  t: TFunction<'transfers'>,
  statuses: readonly Row['status'][],
): ColDef<Row>[] {
  return [
    {
      colId: 'reference',
      field: 'reference' as ColDef<Row>['field'],
      headerName: t('columns.reference'),
      sortable: true,
      minWidth: 150,
      ...textFilter<Row>(),
    },
    {
      colId: 'from',
      headerName: t('columns.from'),
      valueGetter: ({ data }) => (data ? placeLabel(data.from_warehouse) : ''),
      sortable: true,
      minWidth: 170,
      ...textFilter<Row>(),
    },
    {
      colId: 'to',
      headerName: t('columns.to'),
      valueGetter: ({ data }) => (data ? placeLabel(data.to_warehouse) : ''),
      sortable: true,
      minWidth: 170,
      ...textFilter<Row>(),
    },
    {
      colId: 'status',
      headerName: t('columns.status'),
      cellRenderer: ({ data }: ICellRendererParams<Row>) =>
        data ? <StatusBadge status={data.status} /> : null,
      sortable: true,
      minWidth: 130,
      ...choiceFilter<Row>({
        label: t('filters.status'),
        anyLabel: t('filters.any'),
        choices: statuses.map((value) => ({ value, label: t(`status.${value}`) })),
      }),
    },
    {
      colId: 'total_quantity',
      headerName: t('columns.items'),
      valueGetter: ({ data }) =>
        data
          ? t('columns.items_value', {
              lines: t('common:count.codes', { count: data.line_count }),
              quantity: t('common:count.pieces', { count: data.total_quantity }),
            })
          : '',
      sortable: true,
      minWidth: 150,
    },
  ];
}

export const createdAtColumn = <Row extends DocumentRow>(
  t: TFunction<'transfers'>,
  when: (value: string | null | undefined) => string,
): ColDef<Row> => ({
  colId: 'created_at',
  headerName: t('columns.created_at'),
  valueGetter: ({ data }) => when(data?.created_at),
  sortable: true,
  minWidth: 170,
});

export const actionsColumn = <Row extends DocumentRow, Actions>(
  t: TFunction<'transfers'>,
  cell: (props: ICellRendererParams<Row> & { actions: Actions }) => ReactNode,
  actions: Actions,
  width: number,
): ColDef<Row> => ({
  colId: 'actions',
  headerName: t('columns.actions'),
  cellRenderer: cell,
  cellRendererParams: { actions },
  pinned: 'right',
  minWidth: width,
  width,
});

/** A row's action button, named with the document's reference for screen readers ("Approve TRQ-1"). */
export function RowButton({
  row,
  action,
  tone = '',
  onClick,
}: {
  row: DocumentRow;
  action: string;
  tone?: '' | 'button-primary' | 'button-danger-outline';
  onClick(): void;
}) {
  const { t } = useTranslation('transfers');
  return (
    <button
      type="button"
      className={`button button-small ${tone}`.trim()}
      aria-label={t(`actions.${action}_named`, { reference: row.reference })}
      onClick={onClick}
    >
      {t(`actions.${action}`)}
    </button>
  );
}
