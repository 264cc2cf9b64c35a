import { hashSecret, newToken, tokenHash } from '@commands/support/secrets';
import type { Database } from '@infra/db';
import type { Mailer } from '@infra/mail';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { ErrorAnswer, Ok, ok } from '../answers';
import { ApiError, invalid } from '../errors';
import { type Language, translate } from '../i18n';
import { EmailAddress, NewPassword, RegistrationCode } from './registration';

/**
 * Forgotten password and forgotten POS app PIN (spec §2 public routes /reset-password and /reset-pos-app-pin): the
 * user asks with an e-mail, gets a single-use link valid for an hour (its token kept as a SHA-256 hash), and sets a
 * new secret through it. The forgot call answers the same whatever the e-mail, and mails at most once a minute per
 * account. A new password signs the user out everywhere.
 */

export interface RecoveryDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  /** Where the console is reached, for the link in the mail. */
  publicUrl: string;
}

export const RESET_LINK_TTL_SECONDS = 60 * 60;
export const FORGOT_COOLDOWN_SECONDS = 60;

/** Result codes of the reset calls, beyond 0 (success) and 400 (a field is invalid). */
export const RecoveryCode = {
  invalid: 400,
  linkInvalid: 440,
  linkExpired: 441,
  linkUsed: 442,
} as const;

const rule = (key: string) => invalid(RegistrationCode.invalid, key);

export const ForgotRequest = z.strictObject({ email: EmailAddress });

const LinkToken = z
  .string({ error: invalid(RecoveryCode.linkInvalid, 'recovery.link_invalid') })
  .min(1, invalid(RecoveryCode.linkInvalid, 'recovery.link_invalid'))
  .max(200, invalid(RecoveryCode.linkInvalid, 'recovery.link_invalid'));

export const PasswordResetRequest = z
  .strictObject({
    token: LinkToken,
    password: NewPassword,
    confirm_password: z.string({ error: rule('register.password_mismatch') }).max(200),
  })
  .refine((form) => form.password === form.confirm_password, {
    error: rule('register.password_mismatch'),
    path: ['confirm_password'],
  });

const Pin = z.string({ error: rule('recovery.pin_format') }).regex(/^\d{6}$/, rule('recovery.pin_format'));

export const PinResetRequest = z
  .strictObject({
    token: LinkToken,
    pin: Pin,
    confirm_pin: z.string({ error: rule('recovery.pin_mismatch') }).max(20),
  })
  .refine((form) => form.pin === form.confirm_pin, {
    error: rule('recovery.pin_mismatch'),
    path: ['confirm_pin'],
  });

type Purpose = 'password' | 'pos_pin';

/** What differs between the two flows. */
const flows = {
  password: {
    route: '/reset-password',
    mailPurpose: 'password-reset',
    mailKey: 'recovery.mail.password',
    sentKey: 'recovery.password_link_sent',
    doneKey: 'recovery.password_changed',
    action: 'password_reset',
    kinds: ['owner', 'subuser', 'admin', 'subadmin'],
  },
  pos_pin: {
    route: '/reset-pos-app-pin',
    mailPurpose: 'pos-pin-reset',
    mailKey: 'recovery.mail.pin',
    sentKey: 'recovery.pin_link_sent',
    doneKey: 'recovery.pin_changed',
    action: 'pos_pin_reset',
    // The POS app belongs to seller accounts.
    kinds: ['owner', 'subuser'],
  },
} as const satisfies Record<Purpose, unknown>;

export const recoveryRoutes: FastifyPluginAsyncZod<RecoveryDeps> = async (app, deps) => {
  const { db, mailer } = deps;
  const publicUrl = deps.publicUrl.replace(/\/+$/, '');

  /** Mails a reset link when the e-mail is an active account that may use this flow, at most once a minute. */
  async function sendLink(purpose: Purpose, email: string, language: Language): Promise<void> {
    const flow = flows[purpose];
    const user = await db
      .selectFrom('users as u')
      .leftJoin('tenants as n', 'n.id', 'u.tenant_id')
      .select(['u.id', 'u.email', 'u.first_name', 'u.kind', 'u.status', 'n.status as tenant_status'])
      .where((eb) => eb(eb.fn('lower', ['u.email']), '=', email))
      .executeTakeFirst();
    if (user?.status !== 'active' || user.tenant_status === 'suspended') return;
    if (!(flow.kinds as readonly string[]).includes(user.kind)) return;

    const token = newToken();
    const issued = await db.transaction().execute(async (trx) => {
      // One request at a time per account, so the once-a-minute rule holds under parallel requests.
      await sql`SELECT pg_advisory_xact_lock(hashtext(${`reset:${purpose}:${user.id}`}))`.execute(trx);
      const recent = await trx
        .selectFrom('reset_links')
        .select('token_hash')
        .where('user_id', '=', user.id)
        .where('purpose', '=', purpose)
        .where('created_at', '>', sql<Date>`now() - make_interval(secs => ${FORGOT_COOLDOWN_SECONDS})`)
        .executeTakeFirst();
      if (recent) return false;
      // A new link replaces the ones not used yet.
      await trx
        .deleteFrom('reset_links')
        .where('user_id', '=', user.id)
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .execute();
      await trx
        .insertInto('reset_links')
        .values({
          token_hash: tokenHash(token),
          user_id: user.id,
          purpose,
          expires_at: sql<Date>`now() + make_interval(secs => ${RESET_LINK_TTL_SECONDS})`,
        })
        .execute();
      return true;
    });
    if (!issued) return;

    const link = `${publicUrl}/#${flow.route}?token=${encodeURIComponent(token)}`;
    await mailer.send({
      to: user.email,
      subject: translate(language, `${flow.mailKey}_subject`),
      body: translate(language, `${flow.mailKey}_body`, {
        name: user.first_name,
        link,
        minutes: RESET_LINK_TTL_SECONDS / 60,
      }),
      purpose: flow.mailPurpose,
    });
  }

  /**
   * Marks the link used and returns its user, in the caller's transaction; refuses an unknown, replaced, used or
   * expired link with its own message. The user must still be active.
   */
  async function useLink(trx: Kysely<Database>, purpose: Purpose, token: string) {
    const hash = tokenHash(token);
    const used = await trx
      .updateTable('reset_links')
      .set({ used_at: sql<Date>`now()` })
      .where('token_hash', '=', hash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', sql<Date>`now()`)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'reset_links.user_id')
            .where('users.status', '=', 'active'),
        ),
      )
      .returning('user_id')
      .executeTakeFirst();
    if (used) {
      return trx
        .selectFrom('users')
        .select(['id', 'tenant_id', 'email', 'username'])
        .where('id', '=', used.user_id)
        .executeTakeFirstOrThrow();
    }
    const link = await trx
      .selectFrom('reset_links')
      .select(['used_at', sql<boolean>`expires_at <= now()`.as('expired')])
      .where('token_hash', '=', hash)
      .where('purpose', '=', purpose)
      .executeTakeFirst();
    if (link?.used_at) throw new ApiError(400, RecoveryCode.linkUsed, 'recovery.link_used');
    if (link?.expired) throw new ApiError(400, RecoveryCode.linkExpired, 'recovery.link_expired');
    throw new ApiError(400, RecoveryCode.linkInvalid, 'recovery.link_invalid');
  }

  async function logReset(
    trx: Kysely<Database>,
    purpose: Purpose,
    user: { id: string; tenant_id: string | null },
  ) {
    await trx
      .insertInto('activity_log')
      .values({
        tenant_id: user.tenant_id,
        user_id: user.id,
        action: flows[purpose].action,
        subject_type: 'user',
        subject_id: user.id,
        detail: '{}',
      })
      .execute();
  }

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
      await sendLink('password', request.body.email, request.language);
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
      const { token, password } = request.body;
      const passwordHash = await hashSecret(password);
      await db.transaction().execute(async (trx) => {
        const user = await useLink(trx, 'password', token);
        await trx
          .updateTable('users')
          .set({ password_hash: passwordHash, updated_at: sql<Date>`now()` })
          .where('id', '=', user.id)
          .execute();
        await trx
          .updateTable('access_tokens')
          .set({ revoked_at: sql<Date>`now()` })
          .where('user_id', '=', user.id)
          .where('revoked_at', 'is', null)
          .execute();
        // Other links of the same user die with this one; a locked-out account may sign in again at once.
        await trx
          .deleteFrom('reset_links')
          .where('user_id', '=', user.id)
          .where('purpose', '=', 'password')
          .where('used_at', 'is', null)
          .execute();
        await trx
          .deleteFrom('sign_in_failures')
          .where('scope', '=', 'account')
          .where(
            'key',
            'in',
            [user.email, user.username ?? user.email].map((login) => login.toLowerCase()),
          )
          .execute();
        await logReset(trx, 'password', user);
      });
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
      await sendLink('pos_pin', request.body.email, request.language);
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
      const { token, pin } = request.body;
      const pinHash = await hashSecret(pin);
      await db.transaction().execute(async (trx) => {
        const user = await useLink(trx, 'pos_pin', token);
        await trx
          .updateTable('users')
          .set({ pos_pin_hash: pinHash, updated_at: sql<Date>`now()` })
          .where('id', '=', user.id)
          .execute();
        await trx
          .deleteFrom('reset_links')
          .where('user_id', '=', user.id)
          .where('purpose', '=', 'pos_pin')
          .where('used_at', 'is', null)
          .execute();
        await logReset(trx, 'pos_pin', user);
      });
      return ok(request, null, flows.pos_pin.doneKey);
    },
  );
};
