import { LanguageSwitch } from '@web/shell/language-switch';
import type { ReactNode } from 'react';

/** The frame of the public account screens: the brand, the language switch and one card. */
export function AuthFrame({
  title,
  subtitle,
  children,
  wide = false,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  wide?: boolean;
}) {
  return (
    <div className="auth-page">
      <div className="auth-top">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            K
          </span>
          <span className="brand-name">Kedai</span>
        </div>
        <LanguageSwitch />
      </div>
      <main className={`card auth-card ${wide ? 'auth-card-wide' : ''}`}>
        <h1 className="auth-title">{title}</h1>
        {subtitle && <p className="auth-subtitle muted">{subtitle}</p>}
        {children}
      </main>
    </div>
  );
}
