import { EmailRequest } from './email-request';

export default function ForgotPassword() {
  return <EmailRequest path="/api/password/forgot" titleKey="forgot.title" subtitleKey="forgot.subtitle" />;
}
