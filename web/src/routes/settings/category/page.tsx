import { usePlatforms } from '@web/api/lookups';
import { FormMessage, messageOf } from '@web/shell/form';
import { Spinner } from '@web/shell/spinner';
import { useTranslation } from 'react-i18next';
import { NavLink, useParams } from 'react-router-dom';
import { CategoryManager } from './category-manager';
import '@web/routes/management.css';

/** Settings → categories of the other platforms: pick a marketplace or storefront, then manage its tree. */
export default function PlatformCategoriesPage() {
  const { t } = useTranslation('settings');
  const { platform: code } = useParams();
  const platforms = usePlatforms();
  const platform = platforms.data?.find((candidate) => candidate.code === code);

  return (
    <div className="category-screen">
      <nav className="card platform-picker" aria-label={t('categories.platform_picker')}>
        <h2>{t('categories.choose_platform')}</h2>
        {platforms.isPending ? (
          <Spinner label={t('loading')} />
        ) : platforms.error ? (
          <FormMessage kind="error">{messageOf(platforms.error)}</FormMessage>
        ) : (
          <ul className="platform-list">
            {(platforms.data ?? []).map((candidate) => (
              <li key={candidate.code}>
                <NavLink
                  to={`/settings/category/${candidate.code}`}
                  className={({ isActive }) => `platform-link ${isActive ? 'platform-link-active' : ''}`}
                >
                  <img src={candidate.logo} alt="" width={24} height={24} loading="lazy" />
                  <span>{candidate.name}</span>
                </NavLink>
              </li>
            ))}
          </ul>
        )}
      </nav>
      {code === undefined ? (
        <div className="card empty-state">
          <h1 className="page-title">{t('categories.title')}</h1>
          <p className="muted">{t('categories.pick_hint')}</p>
        </div>
      ) : platform ? (
        <CategoryManager
          key={platform.code}
          platform={platform.code}
          title={t('categories.platform_title', { platform: platform.name })}
        />
      ) : platforms.isSuccess ? (
        <FormMessage kind="error">{t('categories.unknown_platform', { platform: code })}</FormMessage>
      ) : null}
    </div>
  );
}
