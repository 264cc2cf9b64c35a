import type { RackLocationRow } from '@web/api/racks';
import type { RowActions } from '@web/components/grid-screen';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormatter } from '../components/fields';
import { textFilter } from '../components/grid-filters';

/** The rack location grid's columns: which master code is where, on which rack; sorts and filters of its endpoint. */

function ActionsCell({
  data,
  actions,
}: ICellRendererParams<RackLocationRow> & { actions: RowActions<RackLocationRow> }) {
  const { t } = useTranslation('inventory');
  if (!data) return null;
  const names = { code: data.master_code.code, place: data.warehouse.name };
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('locations.edit_row_named', names)}
        onClick={() => actions.onEdit(data)}
      >
        {t('actions.edit')}
      </button>
      <button
        type="button"
        className="button button-small button-danger-outline"
        aria-label={t('locations.remove_row_named', names)}
        onClick={() => actions.onDelete(data)}
      >
        {t('actions.remove')}
      </button>
    </div>
  );
}

export function useLocationColumns(actions: RowActions<RackLocationRow>): ColDef<RackLocationRow>[] {
  const { t, i18n } = useTranslation('inventory');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    return [
      {
        colId: 'code',
        headerName: t('locations.columns.code'),
        valueGetter: ({ data }) => data?.master_code.code ?? '',
        sortable: true,
        minWidth: 150,
        ...textFilter<RackLocationRow>(),
      },
      {
        colId: 'name',
        headerName: t('locations.columns.name'),
        valueGetter: ({ data }) => data?.master_code.name ?? '',
        sortable: true,
        minWidth: 200,
        flex: 1,
        ...textFilter<RackLocationRow>(),
      },
      {
        colId: 'warehouse',
        headerName: t('locations.columns.warehouse'),
        valueGetter: ({ data }) => (data ? `${data.warehouse.name} (${data.warehouse.code})` : ''),
        sortable: true,
        minWidth: 180,
        ...textFilter<RackLocationRow>(),
      },
      {
        colId: 'rack',
        headerName: t('locations.columns.rack'),
        valueGetter: ({ data }) =>
          data
            ? data.rack
              ? `${data.rack.name} · ${t(`racks.status.${data.rack.status}`)}`
              : t('locations.no_rack')
            : '',
        sortable: true,
        minWidth: 170,
        ...textFilter<RackLocationRow>(),
      },
      {
        colId: 'note',
        field: 'note',
        headerName: t('locations.columns.note'),
        minWidth: 180,
        ...textFilter<RackLocationRow>(),
      },
      {
        colId: 'updated_at',
        headerName: t('locations.columns.updated'),
        valueGetter: ({ data }) => when(data?.updated_at),
        sortable: true,
        minWidth: 180,
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
    ] satisfies ColDef<RackLocationRow>[];
  }, [t, i18n.language, actions]);
}
