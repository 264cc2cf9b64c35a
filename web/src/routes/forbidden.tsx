import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** Shown instead of a screen the signed-in user may not open. */
export default function Forbidden() {
  const { t } = useTranslation('common');
  return (
    <div className="card state-page" data-testid="forbidden">
      <p className="state-code">403</p>
      <h1>{t('forbidden.title')}</h1>
      <p>{t('forbidden.text')}</p>
      <Link className="button" to="/">
        {t('not_found.home')}
      </Link>
    </div>
  );
}
