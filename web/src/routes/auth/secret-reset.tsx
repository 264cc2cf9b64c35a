import type { PasswordResetRequest, PinResetRequest } from '@api/contracts/accounts';
import { type Answer, api } from '@web/api/client';
import { LOGIN_PATH } from '@web/config';
import { FormMessage, fieldErrorsOf, messageOf, TextField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, type InputHTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { AuthFrame } from './auth-frame';

/** The secret's body fields: `password` / `confirm_password` or `pin` / `confirm_pin`. */
type SecretField = Exclude<keyof PasswordResetRequest | keyof PinResetRequest, 'token'>;

/** Setting a new secret (password or POS PIN) through a mailed link: the secret twice, checked here, then sent. */
export interface SecretResetProps {
  token: string;
  path: string;
  titleKey: string;
  subtitleKey: string;
  field: SecretField;
  confirmField: SecretField;
  labelKey: string;
  confirmLabelKey: string;
  hintKey: string;
  /** The rule the secret must meet; the message when it does not. */
  valid: (secret: string) => boolean;
  invalidKey: string;
  mismatchKey: string;
  input: InputHTMLAttributes<HTMLInputElement>;
  /** Where to go once the secret is set. */
  done: string;
}

export function SecretReset(props: SecretResetProps) {
  const { t } = useTranslation('auth');
  const notify = useNotify();
  const navigate = useNavigate();
  const [secret, setSecret] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (!secret) found[props.field] = t('common:validation.required');
    else if (!props.valid(secret)) found[props.field] = t(props.invalidKey);
    if (!confirm) found[props.confirmField] = t('common:validation.required');
    else if (confirm !== secret) found[props.confirmField] = t(props.mismatchKey);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await api<Answer<null>>(props.path, {
        method: 'POST',
        body: { token: props.token, [props.field]: secret, [props.confirmField]: confirm },
      });
      notify({ kind: 'success', message: answer.msg });
      navigate(props.done, { replace: true });
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setFailure(messageOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthFrame title={t(props.titleKey)} subtitle={t(props.subtitleKey)}>
      {failure && <FormMessage kind="error">{failure}</FormMessage>}
      <form className="form" onSubmit={submit} noValidate>
        <TextField
          {...props.input}
          label={t(props.labelKey)}
          name={props.field}
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          error={errors[props.field]}
          hint={t(props.hintKey)}
          required
          autoFocus
        />
        <TextField
          {...props.input}
          label={t(props.confirmLabelKey)}
          name={props.confirmField}
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
          error={errors[props.confirmField]}
          required
        />
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {t('reset.submit')}
        </button>
      </form>
      <p className="auth-footer">
        <Link to={LOGIN_PATH}>{t('otp.back_to_login')}</Link>
      </p>
    </AuthFrame>
  );
}
