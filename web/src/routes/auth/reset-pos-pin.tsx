import { LOGIN_PATH, POS_PIN_LENGTH } from '@web/config';
import { useSearchParams } from 'react-router-dom';
import { EmailRequest } from './email-request';
import { SecretReset } from './secret-reset';

/** `/reset-pos-app-pin?token=…` sets a new 6-digit POS app PIN; without a token, the form that mails a link. */
export default function ResetPosPin() {
  const [query] = useSearchParams();
  const token = query.get('token');
  if (!token) {
    return (
      <EmailRequest
        path="/api/pos-pin/forgot"
        titleKey="pin.forgot_title"
        subtitleKey="pin.forgot_subtitle"
      />
    );
  }
  const pinPattern = new RegExp(`^\\d{${POS_PIN_LENGTH}}$`);
  return (
    <SecretReset
      token={token}
      path="/api/pos-pin/reset"
      titleKey="pin.title"
      subtitleKey="pin.subtitle"
      field="pin"
      confirmField="confirm_pin"
      labelKey="pin.new_pin"
      confirmLabelKey="pin.confirm_pin"
      hintKey="pin.rule"
      valid={(pin) => pinPattern.test(pin)}
      invalidKey="pin.rule"
      mismatchKey="pin.mismatch"
      input={{
        type: 'password',
        inputMode: 'numeric',
        autoComplete: 'off',
        pattern: '[0-9]*',
        maxLength: POS_PIN_LENGTH,
      }}
      done={LOGIN_PATH}
    />
  );
}
