import { finishConnecting } from '@web/api/stores';
import { Spinner } from '@web/shell/spinner';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';

/**
 * The marketplace's way back (spec §2 "Redirect-only callback routes"): /settings/store/add/{platform}/create (or
 * /settings/store/edit/{platform}/update, re-authorising a linked shop) with the callback query. It hands the query to the API, then goes on to the result page with the outcome.
 */
export default function StoreCallbackPage() {
  const { t } = useTranslation('stores');
  const { platform = '' } = useParams();
  const { pathname, search } = useLocation();
  const step = pathname.startsWith('/settings/store/edit/') ? 'edit/update' : 'add/create';
  const navigate = useNavigate();

  useEffect(() => {
    let live = true;
    finishConnecting(platform, search.replace(/^\?/, ''), step).then(
      (result) => {
        if (!live) return;
        const outcome = new URLSearchParams({
          error: String(result.error),
          code: String(result.code),
          msg: result.msg,
          platform,
          ...(result.api_id ? { api_id: result.api_id } : {}),
        });
        navigate(`/settings/store/result?${outcome}`, { replace: true });
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [platform, search, step, navigate]);

  return (
    <div className="page center-page">
      <Spinner label={t('callback.connecting')} />
    </div>
  );
}
