import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import './stores.css';

/** The result page of a store callback (spec §3 "Callback result": error 1 or 0, msg, code, api_id). */
export default function StoreResultPage() {
  const { t } = useTranslation('stores');
  const [params] = useSearchParams();
  const failed = params.get('error') !== '0';
  const message = params.get('msg') || (failed ? t('result.failed_default') : t('result.connected_default'));

  return (
    <div className="page store-result">
      <div className={`card store-result-card ${failed ? 'store-result-failed' : 'store-result-ok'}`}>
        <h1 className="page-title">{failed ? t('result.failed_title') : t('result.connected_title')}</h1>
        <p role={failed ? 'alert' : 'status'}>{message}</p>
        {failed && params.get('code') && (
          <p className="muted">{t('result.code', { code: params.get('code') })}</p>
        )}
        <Link className="button button-primary" to="/settings/store-integration">
          {t('result.back')}
        </Link>
      </div>
    </div>
  );
}
