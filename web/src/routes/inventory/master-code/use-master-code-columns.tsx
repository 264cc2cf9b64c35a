import type { MasterCode } from '@web/api/master-codes';
import { moneyFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dateTimeFormatter } from '../components/fields';
import { choiceFilter, dateFilter, statusColumn, textFilter } from '../components/grid-filters';

/**
 * The master code grid's columns; the sortable and filterable ones are those the endpoint sorts and filters by
 * (colIds are its names).
 */

export interface MasterCodeActions {
  onToggleStatus(row: MasterCode): void;
}

const editPath = (row: MasterCode) => `/inventory/master-code/${encodeURIComponent(row.id)}`;

function CodeCell({ data }: ICellRendererParams<MasterCode>) {
  if (!data) return null;
  return <Link to={editPath(data)}>{data.code}</Link>;
}

function ActionsCell({ data, actions }: ICellRendererParams<MasterCode> & { actions: MasterCodeActions }) {
  const { t } = useTranslation('inventory');
  if (!data) return null;
  const deactivate = data.status === 'active';
  return (
    <div className="grid-actions">
      <Link
        to={editPath(data)}
        className="button button-small"
        aria-label={t('master_code.edit_named', { code: data.code })}
      >
        {t('actions.edit')}
      </Link>
      <button
        type="button"
        className={`button button-small ${deactivate ? 'button-danger-outline' : ''}`}
        aria-label={t(deactivate ? 'master_code.deactivate_named' : 'master_code.activate_named', {
          code: data.code,
        })}
        onClick={() => actions.onToggleStatus(data)}
      >
        {deactivate ? t('master_code.deactivate') : t('master_code.activate')}
      </button>
    </div>
  );
}

export function useMasterCodeColumns(actions: MasterCodeActions): ColDef<MasterCode>[] {
  const { t, i18n } = useTranslation('inventory');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    const money = moneyFormatter(i18n.language);
    return [
      {
        colId: 'code',
        field: 'code',
        headerName: t('master_code.columns.code'),
        cellRenderer: CodeCell,
        sortable: true,
        minWidth: 130,
        width: 160,
        pinned: 'left',
        ...textFilter<MasterCode>(),
      },
      {
        ...statusColumn<MasterCode>(t, t('master_code.columns.status')),
        width: 140,
        // Pinned like the code: its filter stays in view however many columns the screen fits.
        pinned: 'left',
      },
      {
        colId: 'name',
        field: 'name',
        headerName: t('master_code.columns.name'),
        sortable: true,
        flex: 1,
        minWidth: 200,
        ...textFilter<MasterCode>(),
      },
      {
        colId: 'type',
        headerName: t('master_code.columns.type'),
        valueGetter: ({ data }) => (data ? t(`type.${data.type}`) : ''),
        sortable: true,
        minWidth: 130,
        ...choiceFilter<MasterCode>({
          label: t('master_code.filters.type'),
          anyLabel: t('filters.any'),
          choices: [
            { value: 'standard', label: t('type.standard') },
            { value: 'combo', label: t('type.combo') },
          ],
        }),
      },
      {
        colId: 'category',
        headerName: t('master_code.columns.category'),
        valueGetter: ({ data }) => data?.category?.name ?? '',
        sortable: true,
        minWidth: 150,
        ...textFilter<MasterCode>(),
      },
      {
        colId: 'brand',
        headerName: t('master_code.columns.brand'),
        valueGetter: ({ data }) => data?.brand?.name ?? '',
        sortable: true,
        minWidth: 130,
        ...textFilter<MasterCode>(),
      },
      {
        colId: 'seller_sku',
        field: 'seller_sku',
        headerName: t('master_code.columns.seller_sku'),
        sortable: true,
        minWidth: 140,
        ...textFilter<MasterCode>(),
      },
      {
        colId: 'unit_price',
        headerName: t('master_code.columns.unit_price'),
        valueGetter: ({ data }) => (data ? money(data.unit_price) : ''),
        sortable: true,
        type: 'rightAligned',
        minWidth: 120,
      },
      {
        colId: 'bound',
        headerName: t('master_code.columns.bound'),
        valueGetter: ({ data }) => (data ? t(data.bound ? 'bound.bound' : 'bound.unbound') : ''),
        minWidth: 120,
        ...choiceFilter<MasterCode>({
          label: t('master_code.filters.bound'),
          anyLabel: t('filters.any'),
          choices: [
            { value: 'bound', label: t('bound.bound') },
            { value: 'unbound', label: t('bound.unbound') },
          ],
        }),
      },
      {
        colId: 'updated_at',
        headerName: t('master_code.columns.updated'),
        valueGetter: ({ data }) => when(data?.updated_at),
        sortable: true,
        minWidth: 190,
        ...dateFilter<MasterCode>(),
      },
      {
        colId: 'actions',
        headerName: t('columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: 190,
        width: 190,
      },
    ] satisfies ColDef<MasterCode>[];
  }, [t, i18n.language, actions]);
}
