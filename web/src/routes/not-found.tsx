import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

export default function NotFound() {
  const { t } = useTranslation('common');
  return (
    <div className="card state-page">
      <p className="state-code">404</p>
      <h1>{t('not_found.title')}</h1>
      <p>{t('not_found.text')}</p>
      <Link className="button" to="/">
        {t('not_found.home')}
      </Link>
    </div>
  );
}
