import type { ComboRow } from '@web/api/combos';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { dateTimeFormatter } from '../components/fields';
import { dateFilter, statusColumn, textFilter } from '../components/grid-filters';

/** The combo grid's columns: the combo, its items ("2 × A-001"), status and last change, and its actions. */

export interface ComboActions {
  /** Whether the user may open master codes (details, activate, deactivate). */
  canEditDetails: boolean;
  onEditItems(row: ComboRow): void;
  onToggleStatus(row: ComboRow): void;
}

function ActionsCell({ data, actions }: ICellRendererParams<ComboRow> & { actions: ComboActions }) {
  const { t } = useTranslation('inventory');
  if (!data) return null;
  const deactivate = data.status === 'active';
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('combo.edit_items_named', { code: data.code })}
        onClick={() => actions.onEditItems(data)}
      >
        {t('combo.edit_items')}
      </button>
      {actions.canEditDetails && (
        <>
          <Link
            to={`/inventory/master-code/${encodeURIComponent(data.id)}`}
            className="button button-small"
            aria-label={t('combo.details_named', { code: data.code })}
          >
            {t('combo.details')}
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
        </>
      )}
    </div>
  );
}

export function useComboColumns(actions: ComboActions): ColDef<ComboRow>[] {
  const { t, i18n } = useTranslation('inventory');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    return [
      {
        colId: 'code',
        field: 'code',
        headerName: t('combo.columns.code'),
        sortable: true,
        minWidth: 150,
        pinned: 'left',
        ...textFilter<ComboRow>(),
      },
      {
        colId: 'name',
        field: 'name',
        headerName: t('combo.columns.name'),
        sortable: true,
        minWidth: 200,
        ...textFilter<ComboRow>(),
      },
      statusColumn<ComboRow>(t, t('combo.columns.status')),
      {
        colId: 'items',
        headerName: t('combo.columns.items'),
        valueGetter: ({ data }) =>
          data
            ? data.items
                .map((item) => t('combo.item_summary', { quantity: item.quantity, code: item.code }))
                .join(', ')
            : '',
        tooltipValueGetter: ({ data }) =>
          data?.items.map((item) => `${item.quantity} × ${item.code} ${item.name}`).join('\n') ?? '',
        flex: 1,
        minWidth: 240,
      },
      {
        colId: 'updated_at',
        headerName: t('combo.columns.updated'),
        valueGetter: ({ data }) => when(data?.updated_at),
        sortable: true,
        minWidth: 190,
        ...dateFilter<ComboRow>(),
      },
      {
        colId: 'actions',
        headerName: t('columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: actions.canEditDetails ? 300 : 130,
        width: actions.canEditDetails ? 300 : 130,
      },
    ] satisfies ColDef<ComboRow>[];
  }, [t, i18n.language, actions]);
}
