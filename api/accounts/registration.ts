import { register, resendCode, verifyEmail } from '@commands/accounts/register';
import { OTP_TTL_SECONDS } from '@domain/access/accounts';
import type { Db } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
import type { Mailer } from '@infra/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorAnswer, Ok, ok } from '../answers';
import {
  CodeSent,
  RegisterRequest,
  ResendRequest,
  VerifiedEmail,
  VerifyRequest,
} from '../contracts/accounts';

/**
 * Self-registration (spec §2 "Login and sign-up screens", §5, §9): sign up, verify the e-mail with its code, ask for
 * a new code. The rules are in commands/accounts/register.ts; the mail speaks the caller's language.
 */

export interface RegistrationDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

export const registrationRoutes: FastifyPluginAsyncZod<RegistrationDeps> = async (app, { db, mailer }) => {
  const mailCode = (language: Language) => (to: string, name: string, code: string) =>
    mailer.send({
      to,
      subject: translate(language, 'register.mail.otp_subject', { code }),
      body: translate(language, 'register.mail.otp_body', { name, code, minutes: OTP_TTL_SECONDS / 60 }),
      purpose: 'register-otp',
    });

  app.post(
    '/api/register',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Sign up: creates a pending seller account and mails a 6-digit code',
        body: RegisterRequest,
        response: { 200: Ok(CodeSent), 400: ErrorAnswer, 409: ErrorAnswer, 429: ErrorAnswer },
      },
    },
    async (request) => {
      const sent = await register(
        { db, mailCode: mailCode(request.language) },
        { address: request.ip, language: request.language },
        request.body,
      );
      return ok(request, sent, 'register.code_sent', { email: sent.email });
    },
  );

  app.post(
    '/api/register/verify',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Verify the e-mail with the 6-digit code: activates the owner and the seller account',
        body: VerifyRequest,
        response: { 200: Ok(VerifiedEmail), 400: ErrorAnswer, 409: ErrorAnswer },
      },
    },
    async (request) => ok(request, await verifyEmail({ db }, request.body), 'register.verified'),
  );

  app.post(
    '/api/register/resend',
    {
      config: { access: 'public' },
      schema: {
        tags: ['registration'],
        summary: 'Mail a new 6-digit code (once a minute, five times an hour); the old code stops working',
        body: ResendRequest,
        response: { 200: Ok(CodeSent), 400: ErrorAnswer, 429: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const sent = await resendCode(
        {
          db,
          mailCode: mailCode(request.language),
          retryAfter: (seconds) => reply.header('retry-after', String(seconds)),
        },
        request.body,
      );
      return ok(request, sent, 'register.code_resent', { email: sent.email });
    },
  );
};
