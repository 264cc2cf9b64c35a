import { ErrorAnswer, Ok, ok } from '@api/answers';
import { ForgotRequest, PasswordResetRequest, PinResetRequest } from '@api/contracts/accounts';
import { router } from '@api/route';
import { resetLinkMail } from '@commands/accounts/mail';
import { type ResetPurpose, resetPassword, resetPosPin, sendResetLink } from '@commands/accounts/recovery';
import type { SignInLimits } from '@commands/accounts/sign-in-limits';
import { hashSecret } from '@commands/support/secrets';
import type { Db } from '@infra/db';
import type { Mailer } from '@infra/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Forgotten password and forgotten POS app PIN (spec §2 public routes /reset-password and /reset-pos-app-pin),
 * public: ask for a link by e-mail, then set the new secret through it (commands/accounts/recovery.ts).
 */

export interface RecoveryDeps {
  db: Db;
  mailer: Mailer;
  /** Where the console is reached, for the link in the mail. */
  publicUrl: string;
  /** The throttle of bad reset links (shared with sign-in's). */
  signInLimits: SignInLimits;
}

const raw = { 200: Ok(z.null()), 400: ErrorAnswer };
/** Setting a secret is rate-limited per address and per link. */
const limited = { ...raw, 429: ErrorAnswer };

const flows = {
  password: { base: '/api/password', what: 'password', sent: 'recovery.password_link_sent' },
  pos_pin: { base: '/api/pos-pin', what: 'POS app PIN', sent: 'recovery.pin_link_sent' },
} as const satisfies Record<ResetPurpose, unknown>;

export const recoveryRoutes: FastifyPluginAsyncZod<RecoveryDeps> = async (
  app,
  { db, mailer, publicUrl, signInLimits },
) => {
  const resetDeps = { db, signInLimits, hashSecret };
  const route = router(app, { tags: ['registration'], access: 'public' });

  for (const purpose of ['password', 'pos_pin'] as const) {
    const flow = flows[purpose];
    route.post(
      `${flow.base}/forgot`,
      {
        summary: `Mail a ${flow.what} reset link (the same answer whether or not the e-mail has an account)`,
        body: ForgotRequest,
        raw,
      },
      async (request) => {
        const mailLink = resetLinkMail(mailer, publicUrl, request.language);
        await sendResetLink({ db, mailLink }, { purpose, email: request.body.email });
        return ok(request, null, flow.sent);
      },
    );
  }

  route.post(
    '/api/password/reset',
    {
      summary: 'Set a new password through a reset link; signs the user out everywhere',
      body: PasswordResetRequest,
      raw: limited,
    },
    async (request) => {
      await resetPassword(resetDeps, { address: request.ip }, request.body);
      return ok(request, null, 'recovery.password_changed');
    },
  );

  route.post(
    '/api/pos-pin/reset',
    { summary: 'Set a new 6-digit POS app PIN through a reset link', body: PinResetRequest, raw: limited },
    async (request) => {
      await resetPosPin(resetDeps, { address: request.ip }, request.body);
      return ok(request, null, 'recovery.pin_changed');
    },
  );
};
