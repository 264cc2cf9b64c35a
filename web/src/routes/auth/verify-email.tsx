import type { CodeSent, ResendRequest, VerifiedEmail, VerifyRequest } from '@api/contracts/accounts';
import { type Answer, api } from '@web/api/client';
import { LOGIN_PATH, OTP_LENGTH } from '@web/config';
import { FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthFrame } from './auth-frame';

/**
 * The sign-up's second step (spec §2, §5): the 6-digit code mailed to the new account, a way to have it sent again
 * (once a minute, which the button shows), and a way back to the login.
 */

const RESEND_WAIT_SECONDS = 60;

export default function VerifyEmail() {
  const { t } = useTranslation('auth');
  const notify = useNotify();
  const navigate = useNavigate();
  const [query] = useSearchParams();
  const location = useLocation();
  const sent = (location.state as { sent?: string } | null)?.sent ?? null;
  const knownEmail = query.get('email') ?? '';

  const [email, setEmail] = useState(knownEmail);
  const [otp, setOtp] = useState('');
  const [errors, setErrors] = useState<{ email?: string; otp?: string }>({});
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(
    sent ? { kind: 'success', text: sent } : null,
  );
  const [busy, setBusy] = useState(false);
  const [wait, setWait] = useState(sent ? RESEND_WAIT_SECONDS : 0);

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait(wait - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const checkEmail = () => (email.trim() ? {} : { email: t('common:validation.required') });

  const verify = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      ...checkEmail(),
      ...(new RegExp(`^\\d{${OTP_LENGTH}}$`).test(otp)
        ? {}
        : { otp: t('otp.format', { length: OTP_LENGTH }) }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setMessage(null);
    try {
      const answer = await api<Answer<VerifiedEmail>>('/api/register/verify', {
        method: 'POST',
        body: { email: email.trim(), otp } satisfies VerifyRequest,
      });
      notify({ kind: 'success', message: answer.msg || t('otp.verified') });
      navigate(LOGIN_PATH, { replace: true });
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setMessage({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  const resend = async () => {
    const found = checkEmail();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setMessage(null);
    try {
      const answer = await api<Answer<CodeSent>>('/api/register/resend', {
        method: 'POST',
        body: { email: email.trim() } satisfies ResendRequest,
      });
      setMessage({ kind: 'success', text: answer.msg });
      setWait(RESEND_WAIT_SECONDS);
    } catch (error) {
      setMessage({ kind: 'error', text: messageOf(error) });
    }
  };

  return (
    <AuthFrame
      title={t('otp.title')}
      subtitle={
        knownEmail ? t('otp.subtitle', { email: knownEmail, length: OTP_LENGTH }) : t('otp.subtitle_no_email')
      }
    >
      {message && <FormMessage kind={message.kind}>{message.text}</FormMessage>}
      <form className="form" onSubmit={verify} noValidate>
        {!knownEmail && (
          <TextField
            label={t('register.email')}
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={errors.email}
            required
            maxLength={254}
          />
        )}
        <TextField
          label={t('otp.code')}
          name="otp"
          className="input input-otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={OTP_LENGTH}
          value={otp}
          onChange={(event) => setOtp(event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH))}
          error={errors.otp}
          required
          autoFocus
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {t('otp.submit')}
        </button>
      </form>
      <div className="otp-actions">
        <button type="button" className="button button-link" onClick={resend} disabled={wait > 0}>
          {t('otp.resend')}
        </button>
        {wait > 0 && (
          <span className="muted" aria-live="polite">
            {t('otp.resend_wait', { seconds: wait })}
          </span>
        )}
      </div>
      <p className="auth-footer">
        <Link to={LOGIN_PATH}>{t('otp.back_to_login')}</Link>
      </p>
    </AuthFrame>
  );
}
