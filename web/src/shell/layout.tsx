import { useChangeLanguage } from '@web/api/account';
import { useSession } from '@web/auth/session';
import { ADMIN_LOGIN_PATH, HELP_LINKS, LOGIN_PATH } from '@web/config';
import { mayOpen } from '@web/routes/access';
import { menuNamespaces, moduleRoutes } from '@web/routes/modules';
import type { ModuleRoute } from '@web/routes/types';
import { Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { HomeIcon, MenuIcon } from './icons';
import { LanguageSwitch } from './language-switch';
import { OrderLimitBanner } from './order-limit-banner';
import { usePopover } from './popover';
import { ScreenBoundary } from './screen-boundary';
import { Spinner } from './spinner';
import { UsagePanel } from './usage-panel';

/** The signed-in frame: sidebar with the modules the user may open, header, and the screen. */

type Section = NonNullable<ModuleRoute['menu']>['section'];
const SECTIONS: Section[] = [
  'main',
  'orders',
  'products',
  'inventory',
  'transfers',
  'purchases',
  'settings',
  'admin',
];
/** Each section's heading; a module's own section is named in its namespace. */
const HEADINGS: Record<Section, string> = {
  main: 'nav.main',
  orders: 'orders:nav.section',
  products: 'listings:nav.section',
  inventory: 'inventory:nav.section',
  transfers: 'transfers:nav.section',
  purchases: 'purchases:nav.section',
  settings: 'nav.settings',
  admin: 'nav.admin',
};

function useMenu() {
  const session = useSession();
  const allowed = moduleRoutes.filter((route) => route.menu && mayOpen(route, session));
  return SECTIONS.map((section) => ({
    section,
    items: allowed.filter(
      (route): route is ModuleRoute & { menu: NonNullable<ModuleRoute['menu']> } =>
        route.menu?.section === section,
    ),
  }));
}

function Sidebar({ open, onNavigate }: { open: boolean; onNavigate: () => void }) {
  const { t } = useTranslation(menuNamespaces);
  const { isAdmin } = useSession();
  const sections = useMenu();
  return (
    <nav className={`sidebar ${open ? 'sidebar-open' : ''}`} aria-label={t('nav.label')}>
      <div className="brand">
        <span className="brand-mark" aria-hidden="true">
          K
        </span>
        <span className="brand-name">Kedai</span>
      </div>
      <ul className="menu">
        <li>
          <NavLink to="/" end className="menu-link" onClick={onNavigate}>
            <span className="menu-icon">
              <HomeIcon />
            </span>
            {t(isAdmin ? 'nav.admin_home' : 'nav.dashboard')}
          </NavLink>
        </li>
        {sections[0]!.items.map((route) => (
          <li key={route.path}>
            <NavLink to={`/${route.path}`} className="menu-link" onClick={onNavigate}>
              {t(route.menu.labelKey)}
            </NavLink>
          </li>
        ))}
      </ul>
      {sections.slice(1).map(({ section, items }) =>
        items.length === 0 ? null : (
          <div key={section} className="menu-section">
            <h2 className="menu-heading">{t(HEADINGS[section])}</h2>
            <ul className="menu">
              {items.map((route) => (
                <li key={route.path}>
                  <NavLink to={`/${route.path}`} className="menu-link" onClick={onNavigate}>
                    {t(route.menu.labelKey)}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ),
      )}
    </nav>
  );
}

function UserMenu() {
  const { t } = useTranslation('common');
  const { user, signOut, isAdmin, isSeller } = useSession();
  const navigate = useNavigate();
  const { open, setOpen, ref } = usePopover<HTMLDivElement>();
  const name = user ? `${user.first_name} ${user.last_name}`.trim() || user.email : '';
  const initials = (user?.first_name?.[0] ?? '') + (user?.last_name?.[0] ?? '') || (user?.email[0] ?? '?');

  const logout = async () => {
    setOpen(false);
    await signOut();
    navigate(isAdmin ? ADMIN_LOGIN_PATH : LOGIN_PATH, { replace: true });
  };

  return (
    <div className="popover-anchor" ref={ref}>
      <button
        type="button"
        className="header-button user-button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={t('user_menu.label')}
        data-testid="user-menu"
        onClick={() => setOpen(!open)}
      >
        <span className="avatar" aria-hidden="true">
          {initials.toUpperCase()}
        </span>
        <span className="header-button-label">{name}</span>
      </button>
      {open && (
        <div className="popover user-popover">
          <div className="user-summary">
            <strong>{name}</strong>
            <span className="muted">{user?.email}</span>
            {user?.tenant && <span className="muted">{user.tenant.name}</span>}
            <span className="badge">{t(`kinds.${user?.kind ?? 'owner'}`)}</span>
          </div>
          <div role="menu" aria-label={t('user_menu.label')}>
            {isSeller && (
              <Link
                role="menuitem"
                className="menu-item"
                to="/settings/user-detail"
                data-testid="user-settings"
                onClick={() => setOpen(false)}
              >
                {t('user_menu.settings')}
              </Link>
            )}
            {(Object.keys(HELP_LINKS) as (keyof typeof HELP_LINKS)[]).map((entry) => (
              <a
                key={entry}
                role="menuitem"
                className="menu-item"
                href={HELP_LINKS[entry]}
                target="_blank"
                rel="noopener noreferrer"
                onClick={() => setOpen(false)}
              >
                {t(`user_menu.${entry}`)}
              </a>
            ))}
            <button type="button" role="menuitem" className="menu-item" data-testid="logout" onClick={logout}>
              {t('user_menu.logout')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

export function Layout() {
  const { t } = useTranslation('common');
  const { isSeller, loading, user, failure } = useSession();
  const saveLanguage = useChangeLanguage();
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();

  // biome-ignore lint/correctness/useExhaustiveDependencies: closing the mobile menu is the point of a navigation
  useEffect(() => {
    setMenuOpen(false);
  }, [location.pathname]);

  if (failure) {
    return (
      <div className="center-page">
        <div className="card state-page" role="alert">
          <h1>{t('errors.session_title')}</h1>
          <p>{failure.message}</p>
          <button type="button" className="button" onClick={() => window.location.reload()}>
            {t('version.reload')}
          </button>
        </div>
      </div>
    );
  }
  if (loading || !user) return <Spinner label={t('loading')} fullPage />;

  return (
    <div className="app-frame">
      <Sidebar open={menuOpen} onNavigate={() => setMenuOpen(false)} />
      {menuOpen && <div className="sidebar-backdrop" aria-hidden="true" onClick={() => setMenuOpen(false)} />}
      <div className="app-body">
        <header className="app-header">
          <button
            type="button"
            className="header-button menu-toggle"
            aria-label={t('nav.toggle')}
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <MenuIcon />
          </button>
          <div className="header-title">{user.tenant?.name ?? t('nav.admin_area')}</div>
          <div className="header-actions">
            {isSeller && <UsagePanel />}
            <LanguageSwitch onChosen={(language) => saveLanguage.mutate({ language })} />
            <UserMenu />
          </div>
        </header>
        {isSeller && <OrderLimitBanner />}
        <main className="app-main" id="main">
          <ScreenBoundary>
            <Suspense fallback={<Spinner label={t('loading')} />}>
              <Outlet />
            </Suspense>
          </ScreenBoundary>
        </main>
      </div>
    </div>
  );
}
