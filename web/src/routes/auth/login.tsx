import { type Answer, api, SignInFailure } from '@web/api/client';
import { useSession } from '@web/auth/session';
import { ADMIN_LOGIN_PATH } from '@web/config';
import { FormMessage, messageOf, TextField } from '@web/shell/form';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthFrame } from './auth-frame';
import { afterSignIn } from './safe-redirect';

/**
 * Sign in with a username or e-mail and a password (spec §2). `/admin-login/` is the same form for the provider's
 * admins (scope admin). After a 401 the query carries the reason (`error=1&msg=…`), shown above the form. A device
 * that failed too often is told how long to wait; past the account's ceiling, to open the e-mailed unlock link, which
 * comes back here with `unlock=<token>`: the page posts it, so this device's address may sign in.
 */
export default function Login() {
  const { t } = useTranslation('auth');
  const { signIn, status } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const [query] = useSearchParams();
  const admin = location.pathname.startsWith(ADMIN_LOGIN_PATH.replace(/\/$/, ''));

  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ login?: string; password?: string }>({});
  const [failure, setFailure] = useState<{
    message: string;
    unverified?: boolean;
    kind?: 'error' | 'info';
  } | null>(null);
  const reason = query.get('error') === '1' ? query.get('msg') : null;
  const unlockToken = query.get('unlock');
  const [unlock, setUnlock] = useState<{ kind: 'info' | 'success' | 'error'; message: string } | null>(null);
  // The link works once: a second run of the effect (React's strict mode) must not spend it again.
  const unlockAsked = useRef<string | null>(null);

  useEffect(() => {
    if (!unlockToken || unlockAsked.current === unlockToken) return;
    unlockAsked.current = unlockToken;
    setFailure(null);
    setUnlock({ kind: 'info', message: t('login.unlocking') });
    api<Answer<null>>('/api/sign-in/unlock', { method: 'POST', body: { token: unlockToken } })
      .then(() => setUnlock({ kind: 'success', message: t('login.unlocked') }))
      .catch((error: unknown) => setUnlock({ kind: 'error', message: messageOf(error) }));
  }, [unlockToken, t]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const missing = {
      ...(login.trim() ? {} : { login: t('common:validation.required') }),
      ...(password ? {} : { password: t('common:validation.required') }),
    };
    setErrors(missing);
    if (Object.keys(missing).length > 0) return;
    setFailure(null);
    try {
      await signIn(login.trim(), password, admin);
      navigate(afterSignIn(query.get('redirect'), admin), { replace: true });
    } catch (error) {
      setFailure(failureOf(error));
    }
  };

  /** What a refused sign-in tells the user: the wait and the unlock link in the console's own words. */
  function failureOf(error: unknown) {
    if (error instanceof SignInFailure && error.error === 'too_many_attempts' && error.retryAfter) {
      return { message: t('login.wait', { count: error.retryAfter }) };
    }
    if (error instanceof SignInFailure && error.error === 'unlock_required') {
      return { message: t('login.unlock_sent'), kind: 'info' as const };
    }
    return {
      message: messageOf(error),
      unverified: error instanceof SignInFailure && error.error === 'email_not_verified',
    };
  }

  const verifyLink = `/register/verify${login.includes('@') ? `?email=${encodeURIComponent(login.trim())}` : ''}`;

  return (
    <AuthFrame
      title={t(admin ? 'login.admin_title' : 'login.title')}
      subtitle={t(admin ? 'login.admin_subtitle' : 'login.subtitle')}
    >
      {reason && !failure && <FormMessage kind="error">{reason}</FormMessage>}
      {unlock && !failure && <FormMessage kind={unlock.kind}>{unlock.message}</FormMessage>}
      {failure && (
        <FormMessage kind={failure.kind ?? 'error'}>
          <span>{failure.message}</span>
          {failure.unverified && (
            <>
              {' '}
              <Link to={verifyLink}>{t('login.verify_now')}</Link>
            </>
          )}
        </FormMessage>
      )}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t('login.username')}
          name="username"
          autoComplete="username"
          value={login}
          onChange={(event) => setLogin(event.target.value)}
          error={errors.login}
          required
          maxLength={254}
          autoFocus
        />
        <TextField
          label={t('login.password')}
          name="password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          error={errors.password}
          required
          maxLength={200}
        />
        <div className="form-row-end">
          <Link to="/forgot-password">{t('login.forgot')}</Link>
        </div>
        <button type="submit" className="button button-primary button-block" disabled={status === 'loading'}>
          {status === 'loading' ? t('login.signing_in') : t('login.submit')}
        </button>
      </form>
      {!admin && (
        <p className="auth-footer">
          {t('login.no_account')} <Link to="/register">{t('login.sign_up')}</Link>
        </p>
      )}
    </AuthFrame>
  );
}
