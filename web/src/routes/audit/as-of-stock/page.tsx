import {
  AS_OF_STOCK_ENDPOINT,
  type AsOfStockRow,
  asOfEndpoint,
  exportAsOfStock,
  useAsOfStockTotals,
} from '@web/api/audit';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { dateTimeFormatter, moneyFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButtons } from '../../inventory/stock-common/export-buttons';
import { PlaceSelect } from '../../inventory/stock-common/place-select';
import { AsOfPicker, useAsOf } from '../as-of-picker';
import '../audit.css';

/**
 * Reports → stock as of a date: every master code × warehouse as it stood at the chosen instant (every figure), its
 * moving average cost then and its value, with the totals; exported as CSV or XLSX (streamed). Each row links to
 * the stock's replay.
 */

function ReplayCell({ data }: ICellRendererParams<AsOfStockRow>) {
  const { t } = useTranslation('audit');
  if (!data) return null;
  const target = new URLSearchParams({
    master_code_id: data.master_code.id,
    warehouse_id: data.warehouse.id,
  });
  return <Link to={`/audit/stock?${target}`}>{t('replay.open')}</Link>;
}

function useColumns(replay: boolean): ColDef<AsOfStockRow>[] {
  const { t, i18n } = useTranslation(['audit', 'stock']);
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    const money = moneyFormatter(i18n.language);
    const when = dateTimeFormatter(i18n.language, { seconds: true });
    const figure = (
      colId: 'on_hand' | 'reserved' | 'in_process' | 'incoming' | 'available',
      sortable = false,
    ) =>
      ({
        colId,
        headerName: t(`stock:list.columns.${colId}`),
        valueGetter: ({ data }) => (data ? number.format(data[colId]) : ''),
        sortable,
        type: 'rightAligned',
        minWidth: 80,
      }) satisfies ColDef<AsOfStockRow>;
    const columns: ColDef<AsOfStockRow>[] = [
      {
        colId: 'code',
        headerName: t('stock:list.columns.code'),
        valueGetter: ({ data }) => data?.master_code.code ?? data?.master_code.id ?? '',
        sortable: true,
        pinned: 'left',
        minWidth: 110,
      },
      {
        colId: 'name',
        headerName: t('stock:list.columns.name'),
        valueGetter: ({ data }) => data?.master_code.name ?? '',
        sortable: true,
        flex: 1,
        minWidth: 120,
      },
      {
        colId: 'warehouse',
        headerName: t('stock:list.columns.warehouse'),
        valueGetter: ({ data }) => data?.warehouse.code ?? '',
        sortable: true,
        minWidth: 100,
      },
      figure('on_hand', true),
      figure('reserved'),
      figure('in_process'),
      figure('incoming'),
      figure('available', true),
      {
        colId: 'average_cost',
        headerName: t('as_of.columns.average_cost'),
        valueGetter: ({ data }) => (data ? money(data.average_cost) : ''),
        type: 'rightAligned',
        minWidth: 100,
      },
      {
        colId: 'value',
        headerName: t('as_of.columns.value'),
        valueGetter: ({ data }) => (data ? money(data.value) : ''),
        sortable: true,
        type: 'rightAligned',
        minWidth: 110,
      },
      {
        colId: 'last_movement_at',
        headerName: t('as_of.columns.last_movement_at'),
        valueGetter: ({ data }) => when(data?.last_movement_at),
        minWidth: 150,
      },
    ];
    if (replay) columns.push({ colId: 'replay', headerName: '', cellRenderer: ReplayCell, minWidth: 90 });
    return columns;
  }, [t, i18n.language, replay]);
}

export default function AsOfStockPage() {
  const { t, i18n } = useTranslation('audit');
  const { can, hasModule } = useSession();
  const at = useAsOf();
  const [warehouseId, setWarehouseId] = useState('');
  const filters = { at, warehouse_id: warehouseId || undefined };
  const totals = useAsOfStockTotals(filters);
  const columns = useColumns(can('inventory-stock-movement'));
  const number = new Intl.NumberFormat(i18n.language);
  const money = moneyFormatter(i18n.language);
  const when = dateTimeFormatter(i18n.language, { seconds: true });

  return (
    <GridScreen<AsOfStockRow>
      namespace="audit"
      prefix="as_of_stock"
      gridId="audit.as-of-stock"
      endpoint={asOfEndpoint(AS_OF_STOCK_ENDPOINT, filters)}
      useColumns={() => columns}
      className="stock-page"
      actions={
        can('inventory-list-export') &&
        hasModule('downloadModule') && (
          <ExportButtons download={(format) => exportAsOfStock(format, filters)} />
        )
      }
      above={
        <>
          <AsOfPicker />
          <section className="card" aria-label={t('as_of_stock.totals')}>
            <p className="muted">{t('as_of.showing', { at: when(at) })}</p>
            <dl className="as-of-totals">
              <div>
                <dt>{t('as_of_stock.stocks')}</dt>
                <dd data-testid="as-of-stocks">{totals.data ? number.format(totals.data.stocks) : '…'}</dd>
              </div>
              <div>
                <dt>{t('as_of_stock.on_hand')}</dt>
                <dd data-testid="as-of-on-hand">{totals.data ? number.format(totals.data.on_hand) : '…'}</dd>
              </div>
              <div>
                <dt>{t('as_of_stock.value')}</dt>
                <dd data-testid="as-of-value">{totals.data ? money(totals.data.value) : '…'}</dd>
              </div>
            </dl>
          </section>
        </>
      }
      filters={
        <div className="toolbar-field">
          <PlaceSelect
            label={t('as_of_stock.warehouse')}
            hideLabel
            value={warehouseId}
            onChange={(id) => setWarehouseId(id)}
            allLabel={t('as_of_stock.all_warehouses')}
          />
        </div>
      }
    />
  );
}
