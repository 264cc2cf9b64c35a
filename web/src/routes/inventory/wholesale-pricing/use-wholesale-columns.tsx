import type { WholesalePricing } from '@web/api/wholesale-prices';
import { moneyFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { choiceFilter, statusColumn, textFilter } from '../components/grid-filters';

/**
 * The wholesale pricing grid's columns: the master code grid's own sorting and filters (the endpoint reads the same
 * query), the ordinary unit price, and the tiers as "10+ at 9.00, 50+ at 8.50".
 */

export interface WholesaleActions {
  /** Absent: the user reads the tiers only (pos-wholesale-price without inventory-master-code). */
  onEdit?(row: WholesalePricing): void;
}

function ActionsCell({
  data,
  actions,
}: ICellRendererParams<WholesalePricing> & { actions: WholesaleActions }) {
  const { t } = useTranslation('inventory');
  if (!data || !actions.onEdit) return null;
  const { onEdit } = actions;
  return (
    <div className="grid-actions">
      <button
        type="button"
        className="button button-small"
        aria-label={t('wholesale.edit_named', { code: data.code })}
        onClick={() => onEdit(data)}
      >
        {t('wholesale.edit')}
      </button>
    </div>
  );
}

export function useWholesaleColumns(actions: WholesaleActions): ColDef<WholesalePricing>[] {
  const { t, i18n } = useTranslation('inventory');
  return useMemo(() => {
    const money = moneyFormatter(i18n.language);
    const tiersOf = (row: WholesalePricing | undefined) =>
      row
        ? row.tiers.length === 0
          ? t('wholesale.no_tiers')
          : row.tiers
              .map((tier) =>
                t('wholesale.tier_summary', { quantity: tier.min_quantity, price: money(tier.unit_price) }),
              )
              .join(', ')
        : '';
    return [
      {
        colId: 'code',
        field: 'code',
        headerName: t('master_code.columns.code'),
        sortable: true,
        minWidth: 130,
        width: 160,
        pinned: 'left',
        ...textFilter<WholesalePricing>(),
      },
      {
        colId: 'name',
        field: 'name',
        headerName: t('master_code.columns.name'),
        sortable: true,
        minWidth: 200,
        ...textFilter<WholesalePricing>(),
      },
      {
        colId: 'type',
        headerName: t('master_code.columns.type'),
        valueGetter: ({ data }) => (data ? t(`type.${data.type}`) : ''),
        sortable: true,
        minWidth: 120,
        ...choiceFilter<WholesalePricing>({
          label: t('master_code.filters.type'),
          anyLabel: t('filters.any'),
          choices: [
            { value: 'standard', label: t('type.standard') },
            { value: 'combo', label: t('type.combo') },
          ],
        }),
      },
      { ...statusColumn<WholesalePricing>(t, t('master_code.columns.status')), width: 140 },
      {
        colId: 'unit_price',
        headerName: t('master_code.columns.unit_price'),
        headerTooltip: t('wholesale.unit_price_hint'),
        valueGetter: ({ data }) => (data ? money(data.unit_price) : ''),
        sortable: true,
        type: 'rightAligned',
        minWidth: 120,
      },
      {
        colId: 'tiers',
        headerName: t('wholesale.columns.tiers'),
        valueGetter: ({ data }) => tiersOf(data),
        tooltipValueGetter: ({ data }) => tiersOf(data),
        flex: 1,
        minWidth: 260,
      },
      {
        colId: 'actions',
        headerName: t('columns.actions'),
        cellRenderer: ActionsCell,
        cellRendererParams: { actions },
        pinned: 'right',
        minWidth: 130,
        width: 130,
      },
    ] satisfies ColDef<WholesalePricing>[];
  }, [t, i18n.language, actions]);
}
