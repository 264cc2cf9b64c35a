import { apiData } from '@web/api/client';
import {
  EXTRA_FIGURES,
  type MovementRow,
  type PointQuery,
  type StockHistory,
  useStockHistory,
  useStockSeries,
} from '@web/api/stock';
import { LineChart } from '@web/components/line-chart';
import { FormMessage } from '@web/shell/form';
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { MasterCodePicker, type PickedMasterCode } from '../stock-common/master-code-picker';
import { PlaceSelect } from '../stock-common/place-select';
import { actionName } from '../stock-movement/use-movement-columns';
import '@web/routes/management.css';
import '../stock-common/stock.css';
import { dateFormatter, dateTimeFormatter } from '@web/shell/format';

/**
 * Inventory → point in time (the auditor's replay): a master code, a warehouse and an instant give the stock as it
 * was then (every figure: on hand, reserved, in process, incoming, the three holds, available online), the movements that led to it (the last ones, with earlier ones on demand) and a step chart of the
 * stock over time up to that instant. The choice lives in the address, so a view can be shared or reloaded.
 */

const HISTORY_PAGE = 200;

/** `YYYY-MM-DDTHH:mm:ss` in the browser's zone, for a datetime-local input. */
function localInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/**
 * The field picks a whole second; the instant looked at is that second's last millisecond, so "Now" counts
 * everything recorded in the current second, not only what came before its first millisecond.
 */
function isoOf(local: string): string | null {
  if (!local) return null;
  const date = new Date(local);
  return Number.isNaN(date.getTime()) ? null : new Date(date.getTime() + 999).toISOString();
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** Times on the chart's axis, as precise as its range needs (seconds over minutes, dates over months). */
function useAxisTime(language: string) {
  return useMemo(() => {
    const formats = {
      seconds: new Intl.DateTimeFormat(language, { hour: 'numeric', minute: '2-digit', second: '2-digit' }),
      minutes: new Intl.DateTimeFormat(language, {
        month: 'short',
        day: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
      }),
      days: new Intl.DateTimeFormat(language, { month: 'short', day: 'numeric' }),
    };
    const point = dateTimeFormatter(language, { seconds: true });
    const years = dateFormatter(language);
    return (at: number, span: number) => {
      if (span <= 0) return point(at);
      const format =
        span < 30 * MINUTE
          ? formats.seconds
          : span < 7 * DAY
            ? formats.minutes
            : span < 365 * DAY
              ? formats.days
              : undefined;
      return format ? format.format(new Date(at)) : years(at);
    };
  }, [language]);
}

export default function StockHistoryPage() {
  const { t, i18n } = useTranslation('stock');
  const id = useId();
  const [params, setParams] = useSearchParams();

  // The form's values; the query shown is the one in the address, set on submit.
  const [masterCode, setMasterCode] = useState<PickedMasterCode | null>(() => {
    const masterCodeId = params.get('master_code_id');
    return masterCodeId
      ? { id: masterCodeId, code: params.get('code') ?? '', name: params.get('name') ?? '' }
      : null;
  });
  const [warehouseId, setWarehouseId] = useState(params.get('warehouse_id') ?? '');
  const [at, setAt] = useState(() => {
    const given = params.get('at');
    const date = given ? new Date(given) : new Date();
    return localInput(Number.isNaN(date.getTime()) ? new Date() : date);
  });
  const [errors, setErrors] = useState<{ master_code?: string; warehouse?: string; at?: string }>({});

  const query = useMemo<PointQuery | null>(() => {
    const masterCodeId = params.get('master_code_id');
    const warehouse = params.get('warehouse_id');
    if (!masterCodeId || !warehouse) return null;
    const until = params.get('at') ?? new Date().toISOString();
    return { master_code_id: masterCodeId, warehouse_id: warehouse, until };
  }, [params]);

  // Opened from the stock list with a master code and warehouse but no instant: show "now" at once.
  useEffect(() => {
    if (query && !params.get('at')) {
      const next = new URLSearchParams(params);
      next.set('at', query.until);
      setParams(next, { replace: true });
    }
  }, [query, params, setParams]);

  const history = useStockHistory(query, HISTORY_PAGE);
  // The API states every figure; @web/api/stock types on hand, reserved and available only.
  const stockThen = history.data as StockHistory | undefined;
  const series = useStockSeries(query);

  function submit(event: FormEvent) {
    event.preventDefault();
    const found: typeof errors = {};
    if (!masterCode) found.master_code = t('history.errors.master_code');
    if (!warehouseId) found.warehouse = t('history.errors.warehouse');
    const instant = isoOf(at);
    if (!instant) found.at = t('history.errors.at');
    setErrors(found);
    if (!masterCode || !warehouseId || !instant) return;
    setParams(
      new URLSearchParams({
        master_code_id: masterCode.id,
        code: masterCode.code,
        name: masterCode.name,
        warehouse_id: warehouseId,
        at: instant,
      }),
    );
  }

  const number = new Intl.NumberFormat(i18n.language);
  const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
  const axisTime = useAxisTime(i18n.language);
  const shownCode = params.get('code') || masterCode?.code || '';
  const instant = query ? new Date(query.until) : null;

  return (
    <div className="page management-page stock-page">
      <div className="page-header">
        <div>
          <h1 className="page-title">{t('history.title')}</h1>
          <p className="muted">{t('history.intro')}</p>
        </div>
        <Link className="button" to="/inventory/stock-movement">
          {t('history.back_to_movements')}
        </Link>
      </div>

      <form className="card form" onSubmit={submit} noValidate aria-label={t('history.form_label')}>
        <div className="form-grid">
          <MasterCodePicker
            label={t('history.fields.master_code')}
            value={masterCode}
            onChange={(value) => {
              setMasterCode(value);
              setErrors((current) => ({ ...current, master_code: undefined }));
            }}
            error={errors.master_code}
            type="standard"
            required
          />
          <PlaceSelect
            label={t('history.fields.warehouse')}
            value={warehouseId}
            onChange={(value) => {
              setWarehouseId(value);
              setErrors((current) => ({ ...current, warehouse: undefined }));
            }}
            error={errors.warehouse}
            required
          />
          <div className={`field ${errors.at ? 'field-invalid' : ''}`}>
            <span className="field-label-row">
              <label htmlFor={`${id}-at`} className="field-label">
                {t('history.fields.at')}
              </label>
              <span className="required-mark" aria-hidden="true">
                *
              </span>
            </span>
            <input
              id={`${id}-at`}
              type="datetime-local"
              step={1}
              className="input"
              value={at}
              required
              aria-invalid={errors.at ? true : undefined}
              aria-describedby={errors.at ? `${id}-at-error` : undefined}
              onChange={(event) => {
                setAt(event.target.value);
                setErrors((current) => ({ ...current, at: undefined }));
              }}
            />
            {errors.at && (
              <p id={`${id}-at-error`} className="field-error">
                {errors.at}
              </p>
            )}
          </div>
        </div>
        <div className="form-actions">
          <button type="button" className="button" onClick={() => setAt(localInput(new Date()))}>
            {t('history.now')}
          </button>
          <button type="submit" className="button button-primary">
            {t('history.submit')}
          </button>
        </div>
      </form>

      {history.isError && <FormMessage kind="error">{history.error.message}</FormMessage>}

      {query && stockThen && instant && (
        <section className="card" aria-labelledby={`${id}-figures`} aria-busy={history.isFetching}>
          <h2 id={`${id}-figures`}>
            {t('history.figures_title', { code: shownCode, at: dateTime(instant) })}
          </h2>
          <dl className="stock-figures">
            <div>
              <dt>{t('history.on_hand')}</dt>
              <dd data-testid="stock-at-on-hand">{number.format(stockThen.on_hand)}</dd>
            </div>
            <div>
              <dt>{t('history.reserved')}</dt>
              <dd data-testid="stock-at-reserved">{number.format(stockThen.reserved)}</dd>
            </div>
            {EXTRA_FIGURES.map((figure) => (
              <div key={figure}>
                <dt>{t(`history.${figure}`)}</dt>
                <dd data-testid={`stock-at-${figure.replace(/_/g, '-')}`}>
                  {number.format(stockThen[figure])}
                </dd>
              </div>
            ))}
            <div>
              <dt>{t('history.available')}</dt>
              <dd
                data-testid="stock-at-available"
                className={stockThen.available < 0 ? 'stock-negative' : undefined}
              >
                {number.format(stockThen.available)}
              </dd>
            </div>
          </dl>
          <p className="muted">
            {stockThen.as_of_movement
              ? t('history.as_of', {
                  time: dateTime(stockThen.as_of_movement.occurred_at),
                  action: actionName(t, stockThen.as_of_movement),
                })
              : t('history.no_movement_yet')}
          </p>
        </section>
      )}

      {query && series.data && (
        <LineChart
          title={t('history.chart_title', { code: shownCode })}
          description={t('history.chart_description', {
            code: shownCode,
            from: dateTime(series.data.from),
            to: dateTime(series.data.to),
            count: series.data.points.length,
          })}
          xLabel={t('history.chart_x')}
          yLabel={t('history.chart_y')}
          points={series.data.points.map((point) => ({ at: Date.parse(point.at), value: point.on_hand }))}
          formatX={axisTime}
          formatY={(value) => number.format(value)}
          step
          until={Date.parse(series.data.to)}
          {...(instant ? { marker: { at: instant.getTime(), label: t('history.chart_marker') } } : {})}
          emptyText={t('history.chart_empty')}
        />
      )}

      {query && stockThen && <MovementsUntil query={query} first={stockThen} />}
    </div>
  );
}

/** The movements that led to the stock at the instant, newest first, with earlier pages on demand. */
function MovementsUntil({ query, first }: { query: PointQuery; first: StockHistory }) {
  const { t, i18n } = useTranslation('stock');
  const id = useId();
  const [earlier, setEarlier] = useState<MovementRow[]>([]);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  // A new query starts over.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the rows belong to the answer they were loaded after
  useEffect(() => {
    setEarlier([]);
    setFailure(null);
  }, [first]);

  const rows = [...earlier, ...first.movements];
  const oldest = rows[0];
  const hasMore = oldest !== undefined && rows.length < first.total;

  async function loadEarlier() {
    if (!oldest) return;
    setLoading(true);
    setFailure(null);
    try {
      const page = await apiData<StockHistory>('/api/inventory/stock/history', {
        query: { ...query, limit: HISTORY_PAGE, before_revision: oldest.revision },
      });
      setEarlier((current) => [...page.movements, ...current]);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    } finally {
      setLoading(false);
    }
  }

  const number = new Intl.NumberFormat(i18n.language);
  const signed = new Intl.NumberFormat(i18n.language, { signDisplay: 'exceptZero' });
  const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
  const newestFirst = [...rows].reverse();

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('history.movements_title')}</h2>
      <p className="muted">
        {t('history.movements_count', {
          shown: number.format(rows.length),
          count: first.total,
        })}
      </p>
      {rows.length === 0 ? (
        <p className="muted">{t('history.no_movement_yet')}</p>
      ) : (
        <div className="stock-table-scroll">
          <table className="stock-table">
            <caption className="visually-hidden">{t('history.movements_title')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('movements.columns.time')}</th>
                <th scope="col">{t('movements.columns.action')}</th>
                <th scope="col" className="numeric">
                  {t('movements.columns.previous_stock')}
                </th>
                <th scope="col" className="numeric">
                  {t('movements.columns.change')}
                </th>
                <th scope="col" className="numeric">
                  {t('movements.columns.new_stock')}
                </th>
                <th scope="col" className="numeric">
                  {t('history.reserved')}
                </th>
                {EXTRA_FIGURES.map((figure) => (
                  <th key={figure} scope="col" className="numeric">
                    {t(`history.${figure}`)}
                  </th>
                ))}
                <th scope="col" className="numeric">
                  {t('history.available')}
                </th>
                <th scope="col">{t('movements.columns.description')}</th>
                <th scope="col">{t('movements.columns.created_by')}</th>
              </tr>
            </thead>
            <tbody>
              {newestFirst.map((row) => (
                <tr key={row.id}>
                  <td>{dateTime(row.occurred_at)}</td>
                  <td>{actionName(t, row)}</td>
                  <td className="numeric">{number.format(row.previous_stock)}</td>
                  <td
                    className={`numeric ${row.change > 0 ? 'stock-up' : row.change < 0 ? 'stock-down' : ''}`}
                  >
                    {signed.format(row.change)}
                  </td>
                  <td className="numeric">{number.format(row.new_stock)}</td>
                  <td className="numeric">{number.format(row.reserved)}</td>
                  {EXTRA_FIGURES.map((figure) => (
                    <td key={figure} className="numeric">
                      {number.format(row[figure])}
                    </td>
                  ))}
                  <td className={`numeric ${row.available < 0 ? 'stock-negative' : ''}`}>
                    {number.format(row.available)}
                  </td>
                  <td>{row.description ?? ''}</td>
                  <td>{row.created_by?.name ?? t('movements.system')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      {hasMore && (
        <div className="form-actions">
          <button type="button" className="button" onClick={loadEarlier} disabled={loading}>
            {loading ? t('history.loading') : t('history.load_earlier')}
          </button>
        </div>
      )}
    </section>
  );
}
