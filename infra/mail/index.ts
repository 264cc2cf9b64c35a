import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import nodemailer from 'nodemailer';

/**
 * Outgoing mail (OTP codes, reset links). Every message is written to the `mail_outbox` table first; with SMTP
 * configured it is then sent and marked sent (or its error kept), and without SMTP the log shows it, so a new user on
 * a fresh machine can still finish registering.
 */

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** What the mail is for (`register-otp`, `password-reset`, `pos-pin-reset`): tests and operators find it by this. */
  purpose: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export interface MailSettings {
  smtpUrl?: string;
  from: string;
}

export interface MailLog {
  info(detail: object, message: string): void;
  error(detail: object, message: string): void;
}

export function createMailer(db: Kysely<Database>, settings: MailSettings, log: MailLog): Mailer {
  const transport = settings.smtpUrl ? nodemailer.createTransport(settings.smtpUrl) : undefined;
  return {
    async send(mail) {
      const row = await db
        .insertInto('mail_outbox')
        .values({ recipient: mail.to, subject: mail.subject, body: mail.body, purpose: mail.purpose })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (!transport) {
        log.info(
          { to: mail.to, subject: mail.subject, body: mail.body },
          'mail kept in the outbox (no SMTP configured)',
        );
        return;
      }
      try {
        await transport.sendMail({
          from: settings.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.body,
        });
        await db.updateTable('mail_outbox').set({ sent_at: new Date() }).where('id', '=', row.id).execute();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await db.updateTable('mail_outbox').set({ error: message }).where('id', '=', row.id).execute();
        log.error({ to: mail.to, err: error }, 'sending mail failed; it stays in the outbox');
      }
    },
  };
}
