import {
  type PlatformSummary,
  TENANT_USAGE_ENDPOINT,
  type TenantUsage,
  usePlatformSummary,
} from '@web/api/admin-reports';
import { Chart } from '@web/components/charts';
import { GridScreen } from '@web/components/grid-screen';
import { useTranslation } from 'react-i18next';
import { useTenantUsageColumns } from './use-tenant-usage-columns';

/** Admin reports (shell.md /admin-reports/): the platform's figures, sign-ups by day, and each account's use. */
export default function AdminReportsPage() {
  const { t } = useTranslation('admin');
  const summary = usePlatformSummary();
  return (
    <GridScreen<TenantUsage>
      namespace="admin"
      prefix="reports"
      gridId="admin.reports.tenants"
      endpoint={TENANT_USAGE_ENDPOINT}
      useColumns={useTenantUsageColumns}
      above={
        summary.data ? (
          <PlatformFigures summary={summary.data} />
        ) : (
          <p className="muted" role="status">
            {summary.isError ? t('reports.failed') : t('reports.loading')}
          </p>
        )
      }
    />
  );
}

function PlatformFigures({ summary }: { summary: PlatformSummary }) {
  const { t } = useTranslation('admin');
  const facts = [
    ['accounts', summary.tenants.total],
    ['new_accounts', summary.tenants.new_30_days],
    ['users', summary.users.total],
    ['active_users', summary.users.signed_in_30_days],
    ['orders_this_month', summary.orders_this_month.admitted],
    ['held_this_month', summary.orders_this_month.held],
  ] as const;
  return (
    <div className="admin-report">
      <section className="card">
        <dl className="facts" aria-label={t('reports.figures')}>
          {facts.map(([key, value]) => (
            <div key={key}>
              <dt>{t(`reports.facts.${key}`)}</dt>
              <dd data-fact={key}>{value.toLocaleString()}</dd>
            </div>
          ))}
        </dl>
      </section>
      <div className="grid-2">
        <section className="card">
          <h2>{t('reports.sign_ups')}</h2>
          <Chart
            label={t('reports.sign_ups')}
            height={220}
            options={{
              data: summary.sign_ups,
              series: [{ type: 'bar', xKey: 'day', yKey: 'tenants', yName: t('reports.facts.accounts') }],
              axes: {
                x: { type: 'category', position: 'bottom', label: { rotation: -45 } },
                y: { type: 'number', position: 'left', interval: { step: 1 } },
              },
              legend: { enabled: false },
            }}
          />
        </section>
        <section className="card">
          <h2>{t('reports.by_package')}</h2>
          <table className="plain-table">
            <tbody>
              {summary.tenants.by_package.map((row) => (
                <tr key={row.package_id}>
                  <th scope="row">{row.package}</th>
                  <td>{row.tenants.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>{t('reports.stores')}</h2>
          <table className="plain-table">
            <thead>
              <tr>
                <th scope="col">{t('reports.platform')}</th>
                <th scope="col">{t('reports.connected')}</th>
                <th scope="col">{t('reports.not_connected')}</th>
              </tr>
            </thead>
            <tbody>
              {summary.stores.map((row) => (
                <tr key={row.platform}>
                  <th scope="row">{row.platform}</th>
                  <td>{row.connected.toLocaleString()}</td>
                  <td>{row.other.toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </div>
    </div>
  );
}
