import { LIVE_VIEWS } from '@domain/shared/live-views';
import { withQuery } from '@web/api/client';
import {
  exportMovements,
  MOVEMENTS_ENDPOINT,
  type MovementFilters,
  type MovementRow,
  STOCK_ACTIONS,
} from '@web/api/stock';
import { useSession } from '@web/auth/session';
import { DateRangeFields, dayBound, rangeInvalid } from '@web/components/date-range-fields';
import { GridScreen } from '@web/components/grid-screen';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButtons } from '../stock-common/export-buttons';
import { MasterCodePicker, type PickedMasterCode } from '../stock-common/master-code-picker';
import { PlaceSelect } from '../stock-common/place-select';
import { useMovementColumns } from './use-movement-columns';
import '../stock-common/stock.css';

/**
 * Inventory → stock movement: the ledger (spec §3: previous stock, change, in, out, new stock, warehouse, time,
 * action, description, created by), newest first, filtered by master code, warehouse, dates and action, searched
 * by description, and exported to CSV or XLSX with the same filters.
 */

export default function StockMovementPage() {
  const { t } = useTranslation('stock');
  const { can, hasModule } = useSession();
  const id = useId();
  const [masterCode, setMasterCode] = useState<PickedMasterCode | null>(null);
  const [warehouseId, setWarehouseId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [action, setAction] = useState('');
  const [search, setSearch] = useState('');

  const invalid = rangeInvalid(from, to);
  const filters: MovementFilters = {
    master_code_id: masterCode?.id,
    warehouse_id: warehouseId || undefined,
    from: invalid ? undefined : dayBound(from, false),
    to: invalid ? undefined : dayBound(to, true),
    action: action || undefined,
  };
  const endpoint = withQuery(MOVEMENTS_ENDPOINT, { ...filters });

  return (
    <GridScreen<MovementRow>
      namespace="stock"
      prefix="movements"
      gridId="inventory.stock-movements"
      endpoint={endpoint}
      useColumns={useMovementColumns}
      className="stock-page stock-page-wide"
      // New movements show as they happen.
      live={LIVE_VIEWS.stock}
      search={false}
      query={search}
      actions={
        <>
          <Link className="button" to="/inventory/stock-history">
            {t('movements.point_in_time')}
          </Link>
          {can('inventory-list-export') && hasModule('downloadModule') && (
            <ExportButtons
              download={(format) => {
                const query = search.trim();
                return exportMovements(format, { ...filters, ...(query ? { search: query } : {}) });
              }}
            />
          )}
        </>
      }
      above={
        <search className="card filters" aria-label={t('movements.filters_label')}>
          <div className="form-grid">
            <MasterCodePicker
              label={t('movements.filters.master_code')}
              value={masterCode}
              onChange={setMasterCode}
              type="standard"
            />
            <PlaceSelect
              label={t('movements.filters.warehouse')}
              value={warehouseId}
              onChange={(value) => setWarehouseId(value)}
              allLabel={t('list.all_warehouses')}
            />
            <DateRangeFields
              from={from}
              to={to}
              onFrom={setFrom}
              onTo={setTo}
              labels={{
                from: t('movements.filters.from'),
                to: t('movements.filters.to'),
                invalid: t('movements.errors.range'),
              }}
            />
            <div className="field">
              <label htmlFor={`${id}-action`} className="field-label">
                {t('movements.filters.action')}
              </label>
              <select
                id={`${id}-action`}
                className="input"
                value={action}
                onChange={(event) => setAction(event.target.value)}
              >
                <option value="">{t('movements.all_actions')}</option>
                {STOCK_ACTIONS.map((value) => (
                  <option key={value} value={value}>
                    {t(`actions.${value}`)}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor={`${id}-search`} className="field-label">
                {t('movements.filters.search')}
              </label>
              <input
                id={`${id}-search`}
                type="search"
                className="input"
                placeholder={t('movements.search_placeholder')}
                value={search}
                onChange={(event) => setSearch(event.target.value)}
              />
            </div>
          </div>
        </search>
      }
    />
  );
}
