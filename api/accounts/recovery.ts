import { type ResetPurpose, resetPassword, resetPosPin, sendResetLink } from '@commands/accounts/recovery';
import { RESET_LINK_TTL_SECONDS } from '@domain/access/accounts';
import type { Db } from '@infra/db';
import { translate } from '@infra/i18n';
import type { Mailer } from '@infra/mail';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorAnswer, Ok, ok } from '../answers';
import { ForgotRequest, PasswordResetRequest, PinResetRequest } from '../contracts/accounts';

/**
 * Forgotten password and forgotten POS app PIN (spec §2 public routes /reset-password and /reset-pos-app-pin); the
 * rules are in commands/accounts/recovery.ts, the mail and the answers speak the caller's language.
 */

export interface RecoveryDeps {
  db: Db;
  mailer: Mailer;
  /** Where the console is reached, for the link in the mail. */
  publicUrl: string;
}

/** What the mail and the answers of each flow say. */
const flows = {
  password: {
    route: '/reset-password',
    mailPurpose: 'password-reset',
    mailKey: 'recovery.mail.password',
    sentKey: 'recovery.password_link_sent',
    doneKey: 'recovery.password_changed',
  },
  pos_pin: {
    route: '/reset-pos-app-pin',
    mailPurpose: 'pos-pin-reset',
    mailKey: 'recovery.mail.pin',
    sentKey: 'recovery.pin_link_sent',
    doneKey: 'recovery.pin_changed',
  },
} as const satisfies Record<ResetPurpose, unknown>;

export const recoveryRoutes: FastifyPluginAsyncZod<RecoveryDeps> = async (app, deps) => {
  const { db, mailer } = deps;
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');

  const mailLink =
    (request: FastifyRequest) =>
    (purpose: ResetPurpose, to: { email: string; name: string }, token: string) => {
      const flow = flows[purpose];
      const link = `${publicUrl}/#${flow.route}?token=${encodeURIComponent(token)}`;
      return mailer.send({
        to: to.email,
        subject: translate(request.language, `${flow.mailKey}_subject`),
        body: translate(request.language, `${flow.mailKey}_body`, {
          name: to.name,
          link,
          minutes: RESET_LINK_TTL_SECONDS / 60,
        }),
        purpose: flow.mailPurpose,
      });
    };

  const forgotSchema = (summary: string) => ({
    tags: ['registration'],
    summary,
    body: ForgotRequest,
    response: { 200: Ok(z.null()), 400: ErrorAnswer },
  });

  app.post(
    '/api/password/forgot',
    {
      config: { access: 'public' },
      schema: forgotSchema(
        'Mail a password reset link (the same answer whether or not the e-mail has an account)',
      ),
    },
    async (request) => {
      await sendResetLink(
        { db, mailLink: mailLink(request) },
        { purpose: 'password', email: request.body.email },
      );
      return ok(request, null, flows.password.sentKey);
    },
  );

  app.post(
    '/api/password/reset',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Set a new password through a reset link; signs the user out everywhere',
        body: PasswordResetRequest,
        response: { 200: Ok(z.null()), 400: ErrorAnswer },
      },
    },
    async (request) => {
      await resetPassword({ db }, request.body);
      return ok(request, null, flows.password.doneKey);
    },
  );

  app.post(
    '/api/pos-pin/forgot',
    {
      config: { access: 'public' },
      schema: forgotSchema(
        'Mail a POS app PIN reset link (the same answer whether or not the e-mail has an account)',
      ),
    },
    async (request) => {
      await sendResetLink(
        { db, mailLink: mailLink(request) },
        { purpose: 'pos_pin', email: request.body.email },
      );
      return ok(request, null, flows.pos_pin.sentKey);
    },
  );

  app.post(
    '/api/pos-pin/reset',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Set a new 6-digit POS app PIN through a reset link',
        body: PinResetRequest,
        response: { 200: Ok(z.null()), 400: ErrorAnswer },
      },
    },
    async (request) => {
      await resetPosPin({ db }, request.body);
      return ok(request, null, flows.pos_pin.doneKey);
    },
  );
};
