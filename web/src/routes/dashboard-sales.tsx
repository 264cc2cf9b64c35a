import {
  type DashboardFilters,
  type DashboardTasks,
  type PeriodFigures,
  type RankedProduct,
  SALES_DAILY_VIEW,
  type SalesDashboard,
  TASK_VIEWS,
  TREND_PERIODS,
  type TrendPeriod,
  useDashboardTasks,
  useSalesDashboard,
} from '@web/api/dashboard';
import { useLiveRefresh } from '@web/api/live';
import { Chart } from '@web/components/charts';
import { useMoney } from '@web/shell/format';
import { Spinner } from '@web/shell/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import './dashboard.css';

/**
 * The sales dashboard (spec shell.md "Sales dashboard"): the sales of today, this week and month, the last 7 and 30
 * days, each beside the period before it; sales over time by marketplace against the period before; the product
 * ranking by sales and by quantity; and what waits for the seller. One store or one marketplace narrows it all.
 * The figures follow the live views: an order arriving moves them without a reload.
 */

const NAMESPACES = ['dashboard', 'orders', 'common'];

/** Each card: a period and the one it is compared with. */
const PAIRS = [
  ['today', 'yesterday'],
  ['this_week', 'last_week'],
  ['this_month', 'last_month'],
  ['last_7_days', 'previous_7_days'],
  ['last_30_days', 'previous_30_days'],
] as const;

/** Refreshes `refresh` on a live view's notices (one element per view, so a list of views is a list of these). */
function LiveRefresh({ view, refresh }: { view: string; refresh: () => void }) {
  useLiveRefresh(view, refresh);
  return null;
}

export function SalesDashboardView() {
  const { t } = useTranslation(NAMESPACES);
  const [filters, setFilters] = useState<DashboardFilters>({ period: 'last_7_days' });
  const sales = useSalesDashboard(filters);
  const tasks = useDashboardTasks(filters);
  useLiveRefresh(SALES_DAILY_VIEW, () => void sales.refetch());
  const refreshTasks = () => void tasks.refetch();

  const stores = sales.data?.stores ?? [];
  // The stores' marketplaces, and any that sold through a store no longer connected.
  const platforms = [
    ...new Set([...stores.map((store) => store.platform), ...(sales.data?.trend.platforms ?? [])]),
  ].sort();
  const choose = (change: Partial<DashboardFilters>) => {
    const next = { ...filters, ...change };
    setFilters(
      Object.fromEntries(Object.entries(next).filter(([, value]) => value !== '')) as DashboardFilters,
    );
  };

  return (
    <>
      {TASK_VIEWS.map((view) => (
        <LiveRefresh key={view} view={view} refresh={refreshTasks} />
      ))}
      <section className="card dashboard-sales" aria-labelledby="dashboard-sales-heading">
        <div className="dashboard-heading">
          <h2 id="dashboard-sales-heading">{t('sales.heading')}</h2>
          <div className="dashboard-filters">
            <label>
              <span>{t('filters.store')}</span>
              <select value={filters.store_id ?? ''} onChange={(e) => choose({ store_id: e.target.value })}>
                <option value="">{t('filters.all_stores')}</option>
                {stores.map((store) => (
                  <option key={store.id} value={store.id}>
                    {store.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t('filters.platform')}</span>
              <select value={filters.platform ?? ''} onChange={(e) => choose({ platform: e.target.value })}>
                <option value="">{t('filters.all_platforms')}</option>
                {platforms.map((platform) => (
                  <option key={platform} value={platform}>
                    {t(`orders:platforms.${platform}`, { defaultValue: platform })}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t('filters.period')}</span>
              <select
                value={filters.period}
                onChange={(e) => choose({ period: e.target.value as TrendPeriod })}
              >
                {TREND_PERIODS.map((period) => (
                  <option key={period} value={period}>
                    {t(`periods.${period}`)}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        {sales.data ? (
          <SalesFigures data={sales.data} />
        ) : sales.isError ? (
          <p role="alert">{t('sales.load_failed')}</p>
        ) : (
          <Spinner label={t('common:loading')} />
        )}
      </section>
      {sales.data && (
        <div className="dashboard-grid">
          <SalesChart data={sales.data} />
          <section className="card" aria-labelledby="dashboard-ranking-heading">
            <h2 id="dashboard-ranking-heading">
              {t('ranking.title', { period: t(`periods.${sales.data.trend.period}`) })}
            </h2>
            <div className="ranking-columns">
              <Ranking
                title={t('ranking.by_revenue')}
                products={sales.data.ranking.by_revenue}
                by="revenue"
                currency={sales.data.currency}
              />
              <Ranking
                title={t('ranking.by_units')}
                products={sales.data.ranking.by_units}
                by="units"
                currency={sales.data.currency}
              />
            </div>
          </section>
        </div>
      )}
      {tasks.data && <Tasks data={tasks.data} />}
    </>
  );
}

function SalesFigures({ data }: { data: SalesDashboard }) {
  const { t } = useTranslation(NAMESPACES);
  const money = useMoney();
  const byPeriod = new Map(data.periods.map((figures) => [figures.period, figures]));
  return (
    <div className="figure-cards">
      {PAIRS.map(([current, previous]) => {
        const now = byPeriod.get(current)!;
        const before = byPeriod.get(previous)!;
        return (
          <article key={current} className="figure-card" data-testid={`sales-${current}`}>
            <h3>{t(`periods.${current}`)}</h3>
            <p className="figure-amount" data-testid={`revenue-${current}`}>
              {data.currency} {money(now.revenue)}
            </p>
            <p>
              <span data-testid={`orders-${current}`}>{t('sales.orders', { count: now.orders })}</span>
              {' · '}
              {t('sales.units', { count: now.units })}
            </p>
            <p className="muted">
              {t('sales.paid_unpaid', { paid: now.paid_orders, unpaid: now.unpaid_orders })}
              {now.cancelled_orders > 0 && ` · ${t('sales.cancelled', { cancelled: now.cancelled_orders })}`}
              {now.returned_units > 0 &&
                ` · ${t('sales.returned', { units: now.returned_units, amount: money(now.returned_amount) })}`}
            </p>
            <p className="muted figure-versus">
              {t('sales.versus', {
                period: t(`periods.${previous}`),
                amount: `${data.currency} ${money(before.revenue)}`,
              })}{' '}
              <Change now={now} before={before} />
            </p>
          </article>
        );
      })}
    </div>
  );
}

function Change({ now, before }: { now: PeriodFigures; before: PeriodFigures }) {
  const { t } = useTranslation(NAMESPACES);
  const current = Number(now.revenue);
  const previous = Number(before.revenue);
  if (previous === 0) return current > 0 ? <span className="change up">{t('sales.change_new')}</span> : null;
  const percent = Math.round(((current - previous) / previous) * 100);
  if (percent === 0) return <span className="change">{t('sales.change_none')}</span>;
  return percent > 0 ? (
    <span className="change up">{t('sales.change_up', { percent })}</span>
  ) : (
    <span className="change down">{t('sales.change_down', { percent: -percent })}</span>
  );
}

function SalesChart({ data }: { data: SalesDashboard }) {
  const { t, i18n } = useTranslation(NAMESPACES);
  const { trend, currency } = data;
  const platformName = (platform: string) => t(`orders:platforms.${platform}`, { defaultValue: platform });

  const dayLabel = new Intl.DateTimeFormat(i18n.language, {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  const label = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));
  const options = {
    data: trend.days.map((day) => ({
      day: label(day.day),
      previous: Number(day.previous_revenue),
      ...Object.fromEntries(
        trend.platforms.map((platform) => [platform, Number(day.by_platform[platform] ?? 0)]),
      ),
    })),
    series: [
      ...trend.platforms.map((platform) => ({
        type: 'bar' as const,
        xKey: 'day',
        yKey: platform,
        yName: platformName(platform),
        stacked: true,
      })),
      {
        type: 'line' as const,
        xKey: 'day',
        yKey: 'previous',
        yName: t('chart.previous', { from: label(trend.previous_from), to: label(trend.previous_to) }),
      },
    ],
    legend: { position: 'bottom' as const },
  };
  const shares = trend.platforms.map((platform) => ({
    platform: platformName(platform),
    revenue: trend.days.reduce((sum, day) => sum + Number(day.by_platform[platform] ?? 0), 0),
  }));
  return (
    <section className="card" aria-labelledby="dashboard-chart-heading">
      <h2 id="dashboard-chart-heading">{t('chart.title', { period: t(`periods.${trend.period}`) })}</h2>
      <p className="muted">{t('chart.description', { currency })}</p>
      <Chart label={t('chart.title', { period: t(`periods.${trend.period}`) })} options={options} />
      {shares.length > 0 && (
        <>
          <h3>{t('chart.by_marketplace')}</h3>
          <Chart
            label={t('chart.by_marketplace')}
            height={220}
            options={{
              data: shares,
              series: [
                { type: 'donut', angleKey: 'revenue', legendItemKey: 'platform', innerRadiusRatio: 0.6 },
              ],
              legend: { position: 'right' },
            }}
          />
        </>
      )}
    </section>
  );
}

function Ranking({
  title,
  products,
  by,
  currency,
}: {
  title: string;
  products: readonly RankedProduct[];
  by: 'revenue' | 'units';
  currency: string;
}) {
  const { t } = useTranslation(NAMESPACES);
  const money = useMoney();
  const top = Math.max(...products.map((product) => Number(product[by])), 1);
  return (
    <div className="ranking">
      <h3>{title}</h3>
      {products.length === 0 ? (
        <p className="muted">{t('ranking.empty')}</p>
      ) : (
        <ol data-testid={`ranking-${by}`}>
          {products.map((product) => (
            <li key={`${product.master_code_id ?? ''}:${product.seller_sku}`}>
              <span className="ranking-name">
                {product.name}
                <small className="muted"> {product.code ?? product.seller_sku}</small>
              </span>
              <span className="ranking-bar" aria-hidden="true">
                <span style={{ width: `${(Number(product[by]) / top) * 100}%` }} />
              </span>
              <span className="ranking-value">
                {by === 'revenue'
                  ? `${currency} ${money(product.revenue)}`
                  : t('sales.units', { count: product.units })}
              </span>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Tasks({ data }: { data: DashboardTasks }) {
  const { t } = useTranslation(NAMESPACES);
  const money = useMoney();
  const { approvals, returns, low_stock: low } = data;
  return (
    <section className="dashboard-tasks" aria-labelledby="dashboard-tasks-heading">
      <h2 id="dashboard-tasks-heading">{t('tasks.heading')}</h2>
      <div className="dashboard-grid">
        <article className="card" data-testid="task-unpaid">
          <h3>{t('tasks.unpaid')}</h3>
          <p className="figure-amount">{data.unpaid_orders}</p>
          <Link to="/orders/manage/cancel">{t('tasks.unpaid_link')}</Link>
        </article>
        <article className="card" data-testid="task-low-stock">
          <h3>{t('tasks.low_stock')}</h3>
          <p className="figure-amount">{low.count}</p>
          {low.items.length === 0 ? (
            <p className="muted">{t('tasks.low_stock_none')}</p>
          ) : (
            <ul className="task-list">
              {low.items.map((item) => (
                <li key={`${item.master_code_id}@${item.warehouse_id}`}>
                  <strong>{item.code}</strong> {item.name} · {item.warehouse_name}
                  <span className="muted">
                    {' '}
                    {t('tasks.available', { available: item.available, threshold: item.soft_threshold })}
                  </span>
                </li>
              ))}
            </ul>
          )}
          <Link to="/inventory/list">{t('tasks.low_stock_link')}</Link>
        </article>
        <article className="card" data-testid="task-returns">
          <h3>{t('tasks.returns')}</h3>
          <p className="figure-amount">{returns.count}</p>
          <dl className="facts">
            <div>
              <dt>{t('tasks.returned_units')}</dt>
              <dd>{returns.units}</dd>
            </div>
            <div>
              <dt>{t('tasks.refund')}</dt>
              <dd>{money(returns.refund_to_buyer)}</dd>
            </div>
            <div>
              <dt>{t('tasks.returns_open')}</dt>
              <dd>{returns.open}</dd>
            </div>
          </dl>
          <Link to="/orders/return-reconciliation">{t('tasks.returns_link')}</Link>
        </article>
        <article className="card" data-testid="task-approvals">
          <h3>{t('tasks.approvals')}</h3>
          <ul className="task-list">
            <li>
              <Link to="/transfer-stock/list-request">{t('tasks.transfer_requests')}</Link>:{' '}
              {approvals.transfer_requests}
            </li>
            <li>
              <Link to="/inventory/goods-issue-notes">{t('tasks.goods_issues')}</Link>:{' '}
              {approvals.goods_issues}
            </li>
            <li>
              <Link to="/purchases/list">{t('tasks.purchases')}</Link>: {approvals.purchases}
            </li>
          </ul>
        </article>
      </div>
    </section>
  );
}
