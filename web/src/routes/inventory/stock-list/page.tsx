import { LIVE_VIEWS } from '@domain/shared/live-views';
import { withQuery } from '@web/api/client';
import { exportStockList, STOCK_LIST_ENDPOINT, type StockRow } from '@web/api/stock';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButtons } from '../stock-common/export-buttons';
import { PlaceSelect } from '../stock-common/place-select';
import { useStockColumns } from './use-stock-columns';
import '../stock-common/stock.css';

/**
 * Inventory → stock list: one row per master code per warehouse (every stock figure: on hand, reserved, in process,
 * incoming, the three holds, available online and its percent of on hand; the oversell and low-stock flags, the
 * last movement), filtered by warehouse, search and "oversold only". It follows the live
 * view `stock`: a change made anywhere (another browser, an upload, an order) refreshes the rows on screen.
 */

export default function StockListPage() {
  const { t } = useTranslation('stock');
  const { can, hasModule } = useSession();
  const negativeId = useId();
  const [warehouseId, setWarehouseId] = useState('');
  const [negativeOnly, setNegativeOnly] = useState(false);
  const links = useMemo(
    () => ({ history: can('inventory-stock-movement'), adjust: can('inventory-stock-adjustment') }),
    [can],
  );
  const columns = useStockColumns(links);
  const filters = { warehouse_id: warehouseId || undefined, negative_only: negativeOnly || undefined };
  const endpoint = withQuery(STOCK_LIST_ENDPOINT, filters);

  return (
    <GridScreen<StockRow>
      namespace="stock"
      prefix="list"
      gridId="inventory.stock"
      endpoint={endpoint}
      useColumns={() => columns}
      getRowId={(row) => row.key}
      className="stock-page"
      live={LIVE_VIEWS.stock}
      actions={
        can('inventory-list-export') &&
        hasModule('downloadModule') && (
          <ExportButtons download={(format) => exportStockList(format, filters)} />
        )
      }
      filters={
        <>
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
        </>
      }
    />
  );
}
