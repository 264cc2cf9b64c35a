import { OTP_TTL_SECONDS, RESET_LINK_TTL_SECONDS } from '@domain/access/accounts';
import { type Language, translate } from '@infra/i18n';
import type { Mailer } from '@infra/mail';
import type { ResetPurpose } from './recovery';
import type { UnlockMail } from './unlock';

/** The account mails, in the caller's language: the sign-up code, the reset links and the sign-in unlock link. */

/** Where each reset link leads in the console, and what the mail says. */
const resetMails = {
  password: { route: '/reset-password', purpose: 'password-reset', key: 'recovery.mail.password' },
  pos_pin: { route: '/reset-pos-app-pin', purpose: 'pos-pin-reset', key: 'recovery.mail.pin' },
} as const satisfies Record<ResetPurpose, unknown>;

/** The sign-up code's mail (RegistrationDeps.mailCode). */
export const codeMail = (mailer: Mailer, language: Language) => (to: string, name: string, code: string) =>
  mailer.send({
    to,
    subject: translate(language, 'register.mail.otp_subject', { code }),
    body: translate(language, 'register.mail.otp_body', { name, code, minutes: OTP_TTL_SECONDS / 60 }),
    purpose: 'register-otp',
  });

const consoleLink = (publicUrl: string, route: string, query: string) =>
  `${publicUrl.replace(/\/+$/, '')}/#${route}?${query}`;

/** The reset link's mail (RecoveryDeps.mailLink); `publicUrl` is where the console is reached. */
export const resetLinkMail =
  (mailer: Mailer, publicUrl: string, language: Language) =>
  (purpose: ResetPurpose, to: { email: string; name: string }, token: string) => {
    const mail = resetMails[purpose];
    const link = consoleLink(publicUrl, mail.route, `token=${encodeURIComponent(token)}`);
    return mailer.send({
      to: to.email,
      subject: translate(language, `${mail.key}_subject`),
      body: translate(language, `${mail.key}_body`, {
        name: to.name,
        link,
        minutes: RESET_LINK_TTL_SECONDS / 60,
      }),
      purpose: mail.purpose,
    });
  };

/** The sign-in unlock link's mail (SignInDeps.mailUnlock): it opens the login (the admin's, for an admin). */
export const unlockMail =
  (mailer: Mailer, publicUrl: string, language: Language, minutes: number): UnlockMail =>
  (to, token, admin) =>
    mailer.send({
      to: to.email,
      subject: translate(language, 'auth.unlock_mail_subject'),
      body: translate(language, 'auth.unlock_mail_body', {
        name: to.name,
        link: consoleLink(
          publicUrl,
          admin ? '/admin-login/' : '/login',
          `unlock=${encodeURIComponent(token)}`,
        ),
        minutes,
      }),
      purpose: 'sign-in-unlock',
    });
