import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/** From a bulk upload form to the history of its uploads. */
export function UploadHistoryLink({ to }: { to: string }) {
  const { t } = useTranslation('uploads');
  return <Link to={to}>{t('history_link')}</Link>;
}
