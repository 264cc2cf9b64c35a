import { VERSION_CHECK_MS, VERSION_FORCE_MS } from '@web/config';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';

/**
 * New-version detection (spec §4, §9): the served root page names the hashed entry script of the build it belongs
 * to; when that differs from the one this page runs, a new version was deployed. Checked every 20 minutes and on
 * every route change; a page open for more than 24 hours reloads by itself, any other asks with a banner.
 */

/** The page's entry script: the hashed `/assets/index-*.js` of a build; null on the Vite dev server. */
function entryScript(page: ParentNode): string | null {
  const src = page.querySelector('script[type="module"][src]')?.getAttribute('src') ?? null;
  return src?.startsWith('/assets/') ? src : null;
}

async function servedFingerprint(): Promise<string | null> {
  const response = await fetch('/', { cache: 'no-store', headers: { accept: 'text/html' } });
  if (!response.ok) return null;
  return entryScript(new DOMParser().parseFromString(await response.text(), 'text/html'));
}

const loadedAt = Date.now();

export function useNewVersion(): boolean {
  const [available, setAvailable] = useState(false);
  const checking = useRef(false);
  const location = useLocation();

  const check = useCallback(async () => {
    const loaded = entryScript(document);
    if (!loaded || checking.current) return;
    checking.current = true;
    try {
      const served = await servedFingerprint();
      if (!served || served === loaded) return;
      if (Date.now() - loadedAt >= VERSION_FORCE_MS) window.location.reload();
      else setAvailable(true);
    } catch {
      // Offline or the server restarting: ask again at the next check.
    } finally {
      checking.current = false;
    }
  }, []);

  useEffect(() => {
    const timer = setInterval(check, VERSION_CHECK_MS);
    return () => clearInterval(timer);
  }, [check]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a route change is the reason to check
  useEffect(() => {
    void check();
  }, [check, location.pathname]);

  return available;
}

export function NewVersionBanner() {
  const { t } = useTranslation('common');
  const available = useNewVersion();
  if (!available) return null;
  return (
    <div className="version-banner" role="status">
      <span>{t('version.available')}</span>
      <button type="button" className="button button-small" onClick={() => window.location.reload()}>
        {t('version.reload')}
      </button>
    </div>
  );
}
