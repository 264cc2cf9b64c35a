import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { ScreenLoadError } from './lazy-screen';

/** Catches a screen that failed to load or crashed, so the rest of the console stays usable. */
class Boundary extends Component<{ children: ReactNode; resetKey: string }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: null });
  }

  override render() {
    return this.state.error ? (
      <ScreenFailed loadError={this.state.error instanceof ScreenLoadError} />
    ) : (
      this.props.children
    );
  }
}

function ScreenFailed({ loadError }: { loadError: boolean }) {
  const { t } = useTranslation('common');
  return (
    <div className="card state-page" role="alert">
      <h1>{t(loadError ? 'errors.load_title' : 'errors.crash_title')}</h1>
      <p>{t(loadError ? 'errors.load_text' : 'errors.crash_text')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('version.reload')}
      </button>
    </div>
  );
}

export function ScreenBoundary({ children }: { children: ReactNode }) {
  const location = useLocation();
  return <Boundary resetKey={location.pathname}>{children}</Boundary>;
}
