import {
  REPORTS,
  type ReportColumn,
  type ReportDefinition,
  type ReportId,
  summed,
} from '@domain/reports/catalogue';
import { withQuery } from '@web/api/client';
import {
  exportReport,
  type ReportFilters,
  type ReportRow,
  reportEndpoint,
  useReportTotals,
} from '@web/api/reports';
import { useStores } from '@web/api/stores';
import { useSession } from '@web/auth/session';
import { DateRangeFields, dayBound, rangeInvalid } from '@web/components/date-range-fields';
import { GridScreen } from '@web/components/grid-screen';
import { ExportButtons } from '@web/routes/inventory/stock-common/export-buttons';
import { PlaceSelect } from '@web/routes/inventory/stock-common/place-select';
import NotFoundPage from '@web/routes/not-found';
import { dateTimeFormatter, decimalFormatter, moneyFormatter } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import type { TFunction } from 'i18next';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import './reports.css';

/**
 * One report (domain/reports/catalogue.ts names it from the path): the shared grid over its rows (paged, sorted by
 * any column in SQL), its date range (the last 30 days at first), store and warehouse filters where it takes them,
 * its totals row, what it cannot show yet, and its export to CSV or XLSX with the same filters.
 */

const DAY_MS = 86_400_000;
/** A local calendar day as `yyyy-mm-dd`. */
const localDay = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

/** A cell of a report as the reader reads it: numbers and money in their language, yes/no and payment translated. */
function cellFormatter(t: TFunction<'reports'>, language: string) {
  const money = moneyFormatter(language);
  const whole = new Intl.NumberFormat(language, { maximumFractionDigits: 0 });
  const decimal = decimalFormatter(language);
  const when = dateTimeFormatter(language);
  const values = new Set(['cod', 'online', 'yes', 'no']);
  return (column: ReportColumn, value: ReportRow[string] | undefined): string => {
    if (value === null || value === undefined) return '';
    switch (column.kind) {
      case 'money':
        return money(value);
      case 'count':
        return whole.format(Number(value));
      case 'ratio':
      case 'hours':
        return decimal(Number(value));
      case 'instant':
        return when(String(value));
      default:
        return typeof value === 'string' && values.has(value) ? t(`values.${value}`) : String(value);
    }
  };
}

function useReportColumns(definition: ReportDefinition): ColDef<ReportRow>[] {
  const { t, i18n } = useTranslation('reports');
  return useMemo(() => {
    const format = cellFormatter(t, i18n.language);
    return definition.columns.map((column) => ({
      colId: column.id,
      headerName: t(`columns.${column.id}`),
      valueGetter: ({ data }) => format(column, data?.[column.id]),
      sortable: true,
      minWidth: column.kind === 'text' ? 140 : 110,
      flex: column.id === 'name' ? 2 : 1,
      ...(column.kind === 'text' || column.kind === 'day' || column.kind === 'instant'
        ? {}
        : { type: 'rightAligned' }),
    }));
  }, [definition, t, i18n.language]);
}

export default function ReportPage() {
  const { pathname } = useLocation();
  const definition = REPORTS.find((report) => pathname === `/reports/${report.id}`);
  return definition ? <Report key={definition.id} definition={definition} /> : <NotFoundPage />;
}

function Report({ definition }: { definition: ReportDefinition }) {
  const { t, i18n } = useTranslation('reports');
  const { can } = useSession();
  const report = definition.id as ReportId;
  const [from, setFrom] = useState(() => localDay(new Date(Date.now() - 29 * DAY_MS)));
  const [to, setTo] = useState(() => localDay(new Date()));
  const [storeId, setStoreId] = useState('');
  const [warehouseId, setWarehouseId] = useState('');
  const invalid = rangeInvalid(from, to);
  const end = invalid ? undefined : dayBound(to, true);
  const filters: ReportFilters = {
    from: invalid ? undefined : dayBound(from, false),
    // The end of the last day, as the API's exclusive end.
    to: end ? new Date(new Date(end).getTime() + 1).toISOString() : undefined,
    store_id: definition.filters.store ? storeId || undefined : undefined,
    warehouse_id: definition.filters.warehouse ? warehouseId || undefined : undefined,
  };
  const useColumns = () => useReportColumns(definition);

  return (
    <GridScreen<ReportRow>
      namespace="reports"
      prefix="report"
      gridId={`reports.${report}`}
      endpoint={withQuery(reportEndpoint(report), { ...filters })}
      useColumns={useColumns}
      title={t(`titles.${report}`)}
      intro={t(`intros.${report}`)}
      className="report-page"
      search={false}
      getRowId={(row) => JSON.stringify(row)}
      actions={
        <>
          <Link className="button" to="/reports">
            {t('back')}
          </Link>
          <ExportButtons download={(format) => exportReport(report, format, filters)} />
        </>
      }
      above={
        <>
          {definition.missing.length > 0 && (
            <aside className="card report-missing" aria-label={t('missing_label')}>
              {definition.missing.map((missing) => (
                <p key={missing} role="note">
                  {t(`missing.${missing}`)}
                </p>
              ))}
            </aside>
          )}
          <search className="card filters" aria-label={t('filters_label')}>
            <div className="form-grid">
              <DateRangeFields
                from={from}
                to={to}
                onFrom={setFrom}
                onTo={setTo}
                labels={{ from: t('from'), to: t('to'), invalid: t('range_invalid') }}
              />
              {definition.filters.store && can('marketplace_control') && (
                <StoreSelect value={storeId} onChange={setStoreId} />
              )}
              {definition.filters.warehouse && (
                <PlaceSelect
                  label={t('warehouse')}
                  value={warehouseId}
                  onChange={(value) => setWarehouseId(value)}
                  allLabel={t('all_warehouses')}
                />
              )}
            </div>
          </search>
          <Totals definition={definition} filters={filters} language={i18n.language} />
        </>
      }
    />
  );
}

function StoreSelect({ value, onChange }: { value: string; onChange(id: string): void }) {
  const { t } = useTranslation('reports');
  const id = useId();
  const stores = useStores();
  return (
    <div className="field">
      <label htmlFor={id} className="field-label">
        {t('store')}
      </label>
      <select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)}>
        <option value="">{t('all_stores')}</option>
        {(stores.data ?? []).map((store) => (
          <option key={store.id} value={store.id}>
            {store.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The totals row: how many rows, and the sums of the report's counts and amounts for the same filters. */
function Totals({
  definition,
  filters,
  language,
}: {
  definition: ReportDefinition;
  filters: ReportFilters;
  language: string;
}) {
  const { t } = useTranslation('reports');
  const totals = useReportTotals(definition.id as ReportId, filters);
  const format = cellFormatter(t, language);
  const columns = definition.columns.filter((column) => summed(definition).includes(column.id));
  return (
    <section className="card report-totals" aria-label={t('totals_label')} data-testid="report-totals">
      <strong>{t('totals')}</strong>
      <dl>
        <dt>{t('rows')}</dt>
        <dd data-testid="report-total-rows">
          {totals.data ? format({ id: 'rows', kind: 'count' }, totals.data.rows) : '…'}
        </dd>
        {columns.map((column) => (
          <div key={column.id} className="report-total">
            <dt>{t(`columns.${column.id}`)}</dt>
            <dd data-testid={`report-total-${column.id}`}>
              {totals.data ? format(column, totals.data.totals[column.id]) : '…'}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
