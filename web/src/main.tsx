import '@web/styles.css';
import { App } from '@web/app';
import { i18nReady } from '@web/i18n';
import { Spinner } from '@web/shell/spinner';
import { StrictMode, Suspense } from 'react';
import { createRoot } from 'react-dom/client';

const root = createRoot(document.getElementById('root')!);

void i18nReady.finally(() =>
  root.render(
    <StrictMode>
      <Suspense fallback={<Spinner label="…" fullPage />}>
        <App />
      </Suspense>
    </StrictMode>,
  ),
);
