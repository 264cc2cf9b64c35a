import { LOGIN_PATH, passwordIsStrong } from '@web/config';
import { useSearchParams } from 'react-router-dom';
import { EmailRequest } from './email-request';
import { SecretReset } from './secret-reset';

/** `/reset-password?token=…` from the mailed link; without a token, the form that mails one. */
export default function ResetPassword() {
  const [query] = useSearchParams();
  const token = query.get('token');
  if (!token) {
    return <EmailRequest path="/api/password/forgot" titleKey="forgot.title" subtitleKey="forgot.subtitle" />;
  }
  return (
    <SecretReset
      token={token}
      path="/api/password/reset"
      titleKey="reset.password_title"
      subtitleKey="reset.password_subtitle"
      field="password"
      confirmField="confirm_password"
      labelKey="reset.new_password"
      confirmLabelKey="register.confirm_password"
      hintKey="register.password_rule"
      valid={passwordIsStrong}
      invalidKey="register.password_rule"
      mismatchKey="register.password_mismatch"
      input={{ type: 'password', autoComplete: 'new-password', maxLength: 200 }}
      done={LOGIN_PATH}
    />
  );
}
