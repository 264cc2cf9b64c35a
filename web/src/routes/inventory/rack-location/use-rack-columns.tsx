import type { Rack } from '@web/api/racks';
import type { RowActions } from '@web/components/grid-screen';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeFormatter } from '../components/fields';
import { choiceFilter, textFilter } from '../components/grid-filters';

/** The rack grid's columns; sorts and filters are those of the rack endpoint. */

function ActionsCell({ data, actions }: ICellRendererParams<Rack> & { actions: RowActions<Rack> }) {
  const { t } = useTranslation('inventory');
  if (!data) return null;
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('racks.edit_named', { name: data.name, place: data.warehouse.name })}
        onClick={() => actions.onEdit(data)}
      >
        {t('actions.edit')}
      </button>
      <button
        type="button"
        className="button button-small button-danger-outline"
        aria-label={t('racks.delete_named', { name: data.name, place: data.warehouse.name })}
        onClick={() => actions.onDelete(data)}
      >
        {t('actions.delete')}
      </button>
    </div>
  );
}

export function useRackColumns(actions: RowActions<Rack>): ColDef<Rack>[] {
  const { t, i18n } = useTranslation('inventory');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    return [
      {
        colId: 'name',
        field: 'name',
        headerName: t('racks.columns.name'),
        sortable: true,
        minWidth: 150,
        ...textFilter<Rack>(),
      },
      {
        colId: 'warehouse',
        headerName: t('racks.columns.warehouse'),
        valueGetter: ({ data }) => (data ? `${data.warehouse.name} (${data.warehouse.code})` : ''),
        sortable: true,
        minWidth: 180,
        ...textFilter<Rack>(),
      },
      {
        colId: 'status',
        headerName: t('racks.columns.status'),
        valueGetter: ({ data }) => (data ? t(`racks.status.${data.status}`) : ''),
        sortable: true,
        minWidth: 140,
        ...choiceFilter<Rack>({
          label: t('racks.filters.status'),
          anyLabel: t('filters.any'),
          choices: [
            { value: 'available', label: t('racks.status.available') },
            { value: 'occupied', label: t('racks.status.occupied') },
          ],
        }),
      },
      {
        colId: 'note',
        field: 'note',
        headerName: t('racks.columns.note'),
        flex: 1,
        minWidth: 180,
        ...textFilter<Rack>(),
      },
      {
        colId: 'master_code_count',
        field: 'master_code_count',
        headerName: t('columns.master_codes'),
        type: 'rightAligned',
        minWidth: 120,
      },
      {
        colId: 'updated_at',
        headerName: t('racks.columns.updated'),
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
    ] satisfies ColDef<Rack>[];
  }, [t, i18n.language, actions]);
}
