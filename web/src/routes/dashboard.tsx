import { DASHBOARD_KEY } from '@web/api/dashboard';
import { useSession } from '@web/auth/session';
import { mayOpen } from '@web/routes/access';
import { menuNamespaces, moduleRoutes } from '@web/routes/modules';
import { PageHeader } from '@web/shell/page';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { SalesDashboardView } from './dashboard-sales';

/**
 * The landing screen: the sales dashboard for whoever holds its key, then who you are, your package, where to start
 * and the shortcuts to the screens you may open.
 */
export default function Dashboard() {
  const { t } = useTranslation(menuNamespaces);
  const session = useSession();
  const { user, isAdmin } = session;
  const shortcuts = moduleRoutes.filter((route) => route.menu && mayOpen(route, session));
  const name = user?.first_name || user?.email || '';
  const hints = isAdmin
    ? (['admin_announcements', 'admin_users'] as const)
    : (['team', 'groups', 'marketplaces', 'products', 'language'] as const);
  const sales = session.isSeller && session.can(DASHBOARD_KEY);

  return (
    <div className="page">
      <PageHeader title={t(isAdmin ? 'dashboard.admin_title' : 'dashboard.title')} />
      {sales && <SalesDashboardView />}
      <section className="card welcome-card">
        <h2>{t('dashboard.welcome', { name })}</h2>
        {user?.tenant ? (
          <dl className="facts">
            <div>
              <dt>{t('dashboard.store')}</dt>
              <dd>{user.tenant.name}</dd>
            </div>
            <div>
              <dt>{t('dashboard.package')}</dt>
              <dd>{user.tenant.package.name}</dd>
            </div>
            <div>
              <dt>{t('dashboard.role')}</dt>
              <dd>{user.group ? user.group.name : t(`kinds.${user.kind}`)}</dd>
            </div>
          </dl>
        ) : (
          <p className="muted">{t('dashboard.admin_intro')}</p>
        )}
      </section>
      <div className="grid-2">
        <section className="card">
          <h2>{t('dashboard.get_started')}</h2>
          <ol className="hint-list">
            {hints.map((hint) => (
              <li key={hint}>
                <strong>{t(`dashboard.hints.${hint}.title`)}</strong>
                <span className="muted">{t(`dashboard.hints.${hint}.text`)}</span>
              </li>
            ))}
          </ol>
        </section>
        <section className="card">
          <h2>{t('dashboard.shortcuts')}</h2>
          {shortcuts.length === 0 ? (
            <p className="muted">{t('dashboard.no_shortcuts')}</p>
          ) : (
            <ul className="shortcut-list">
              {shortcuts.map((route) => (
                <li key={route.path}>
                  <Link to={`/${route.path}`}>{t(route.menu!.labelKey)}</Link>
                </li>
              ))}
            </ul>
          )}
        </section>
      </div>
    </div>
  );
}
