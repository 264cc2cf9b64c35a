import { ErrorAnswer, Ok, ok } from '@api/answers';
import {
  CodeSent,
  RegisterRequest,
  ResendRequest,
  VerifiedEmail,
  VerifyRequest,
} from '@api/contracts/accounts';
import { router } from '@api/route';
import { codeMail } from '@commands/accounts/mail';
import { register, resendCode, verifyEmail } from '@commands/accounts/register';
import type { Db } from '@infra/db';
import type { Mailer } from '@infra/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/**
 * Self-registration (spec §2 "Login and sign-up screens", §5, §9), public: sign up, verify the e-mail with its code,
 * ask for a new code (commands/accounts/register.ts).
 */

export interface RegistrationDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
}

const answers = (data: typeof CodeSent | typeof VerifiedEmail, ...statuses: number[]) => ({
  200: Ok(data),
  400: ErrorAnswer,
  ...Object.fromEntries(statuses.map((status) => [status, ErrorAnswer])),
});

export const registrationRoutes: FastifyPluginAsyncZod<RegistrationDeps> = async (app, { db, mailer }) => {
  const route = router(app, { tags: ['registration'], access: 'public' });

  route.post(
    '/api/register',
    {
      summary: 'Sign up: creates a pending seller account and mails a 6-digit code',
      body: RegisterRequest,
      raw: answers(CodeSent, 409, 429),
    },
    async (request) => {
      const deps = { db, mailCode: codeMail(mailer, request.language) };
      const sent = await register(deps, { address: request.ip, language: request.language }, request.body);
      return ok(request, sent, 'register.code_sent', { email: sent.email });
    },
  );

  route.post(
    '/api/register/verify',
    {
      summary: 'Verify the e-mail with the 6-digit code: activates the owner and the seller account',
      body: VerifyRequest,
      raw: answers(VerifiedEmail, 409),
    },
    async (request) => ok(request, await verifyEmail({ db }, request.body), 'register.verified'),
  );

  route.post(
    '/api/register/resend',
    {
      summary: 'Mail a new 6-digit code (once a minute, five times an hour); the old code stops working',
      body: ResendRequest,
      raw: answers(CodeSent, 429),
    },
    async (request, reply) => {
      const mailCode = codeMail(mailer, request.language);
      const retryAfter = (seconds: number) => reply.header('retry-after', String(seconds));
      const sent = await resendCode({ db, mailCode, retryAfter }, request.body);
      return ok(request, sent, 'register.code_resent', { email: sent.email });
    },
  );
};
