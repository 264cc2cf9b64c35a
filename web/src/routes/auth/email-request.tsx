import type { ForgotRequest } from '@api/contracts/accounts';
import { type Answer, api } from '@web/api/client';
import { LOGIN_PATH } from '@web/config';
import { FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { AuthFrame } from './auth-frame';

/** "Mail me a reset link": the e-mail form shared by the forgotten password and the forgotten POS app PIN. */
export function EmailRequest({
  path,
  titleKey,
  subtitleKey,
}: {
  path: string;
  titleKey: string;
  subtitleKey: string;
}) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim()) {
      setError(t('common:validation.required'));
      return;
    }
    setError(undefined);
    setBusy(true);
    setMessage(null);
    try {
      const answer = await api<Answer<null>>(path, {
        method: 'POST',
        body: { email: email.trim() } satisfies ForgotRequest,
      });
      setMessage({ kind: 'success', text: answer.msg });
    } catch (failure) {
      setError(fieldErrorsOf(failure).email);
      setMessage({ kind: 'error', text: messageOf(failure) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t(titleKey)} subtitle={t(subtitleKey)}>
      {message && <FormMessage kind={message.kind}>{message.text}</FormMessage>}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          label={t('register.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          error={error}
          required
          maxLength={254}
          autoFocus
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {t('forgot.submit')}
        </button>
      </form>
      <p className="auth-footer">
        <Link to={LOGIN_PATH}>{t('otp.back_to_login')}</Link>
      </p>
    </AuthFrame>
  );
}
