import { STOCK_LIST_ENDPOINT, withQuery } from '@web/api/stock';
import { useSession } from '@web/auth/session';
import { DataGrid, type DataGridHandle } from '@web/components/data-grid';
import { useCallback, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { StockListRow } from '../stock-common/figures';
import { PlaceSelect } from '../stock-common/place-select';
import { useLiveRefresh } from '../stock-common/use-live-refresh';
import { useStockColumns } from './use-stock-columns';
import '@web/routes/management.css';
import '../stock-common/stock.css';

/**
 * Inventory → stock list: one row per master code per warehouse (every stock figure: on hand, reserved, in process,
 * incoming, the three holds, available online and its percent of on hand; the oversell and low-stock flags, the
 * last movement), filtered by warehouse, search and "oversold only". It follows the live
 * view `stock`: a change made anywhere (another browser, an upload, an order) refreshes the rows on screen.
 */

export default function StockListPage() {
  const { t } = useTranslation('stock');
  const { can } = useSession();
  const searchId = useId();
  const negativeId = useId();
  const grid = useRef<DataGridHandle>(null);
  const [search, setSearch] = useState('');
  const [warehouseId, setWarehouseId] = useState('');
  const [negativeOnly, setNegativeOnly] = useState(false);
  const links = useMemo(
    () => ({ history: can('inventory-stock-movement'), adjust: can('inventory-stock-adjustment') }),
    [can],
  );
  const columns = useStockColumns(links);
  const endpoint = withQuery(STOCK_LIST_ENDPOINT, {
    warehouse_id: warehouseId || undefined,
    negative_only: negativeOnly || undefined,
  });

  useLiveRefresh(
    'stock',
    useCallback(() => grid.current?.refresh(), []),
  );

  return (
    <div className="page management-page stock-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('list.title')}</h1>
          <p className="muted">{t('list.intro')}</p>
        </div>
      </div>
      <div className="toolbar">
        <label htmlFor={searchId} className="visually-hidden">
          {t('list.search_label')}
        </label>
        <input
          id={searchId}
          type="search"
          className="input toolbar-search"
          placeholder={t('list.search_placeholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <div className="toolbar-field">
          <PlaceSelect
            label={t('list.warehouse_filter')}
            hideLabel
            value={warehouseId}
            onChange={(id) => setWarehouseId(id)}
            allLabel={t('list.all_warehouses')}
          />
        </div>
        <label htmlFor={negativeId} className="check-label">
          <input
            id={negativeId}
            type="checkbox"
            checked={negativeOnly}
            onChange={(event) => setNegativeOnly(event.target.checked)}
          />
          {t('list.negative_only')}
        </label>
      </div>
      <DataGrid<StockListRow>
        gridId="inventory.stock"
        endpoint={endpoint}
        columns={columns}
        label={t('list.grid_label')}
        search={search}
        getRowId={(row) => row.key}
        handle={grid}
      />
    </div>
  );
}
