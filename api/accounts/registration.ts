import { createTenantWithOwner } from '@commands/accounts/seed';
import { decoyHash, hashSecret, newOtp, verifySecret } from '@commands/support/secrets';
import {
  ACCOUNTING_SYSTEMS,
  AVERAGE_ORDERS,
  FOUND_US,
  LOOKING_FOR,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SUPPORTED_COUNTRIES as SIGN_UP_COUNTRIES,
  WAREHOUSE_SIZES,
} from '@domain/access/sign-up';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import type { Mailer } from '@infra/mail';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { ErrorAnswer, Ok, ok } from '../answers';
import { ApiError, invalid } from '../errors';
import { type Language, translate } from '../i18n';

/**
 * Self-registration (spec §2 "Login and sign-up screens", §5, §9): the sign-up form creates a pending seller account
 * on the trial package and mails a 6-digit code; entering the code activates the owner and the account. Codes are
 * kept as argon2id hashes, live 10 minutes, die after 5 tries, and a new one can be asked for once a minute and five
 * times an hour. Answers never tell whether an e-mail is registered beyond what the sign-up form itself must say.
 */

export interface RegistrationDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  publicUrl: string;
}

export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;
export const SENDS_PER_HOUR = 5;

/** Result codes of the registration calls, beyond 0 (success) and 400 (a field is invalid). */
export const RegistrationCode = {
  invalid: 400,
  emailTaken: 409,
  tooManyRequests: 429,
  otpWrong: 430,
  otpExpired: 431,
  otpLocked: 432,
  alreadyVerified: 433,
} as const;

// ---- the form's shapes (shared with the password and PIN reset calls) ----

export {
  ACCOUNTING_SYSTEMS,
  AVERAGE_ORDERS,
  FOUND_US,
  LOOKING_FOR,
  SUPPORTED_COUNTRIES as SIGN_UP_COUNTRIES,
  WAREHOUSE_SIZES,
} from '@domain/access/sign-up';

const rule = (key: string, params?: Record<string, number>) => invalid(RegistrationCode.invalid, key, params);

/** An e-mail address, trimmed and lower-cased (the users table is unique on lower(email)). */
export const EmailAddress = z
  .string({ error: rule('register.email_invalid') })
  .trim()
  .toLowerCase()
  .max(254, rule('register.email_invalid'))
  .regex(z.regexes.email, rule('register.email_invalid'));

/** Spec §5 and §9: more than 8 characters with at least one digit. */
export const NewPassword = z
  .string({ error: rule('register.password_short') })
  .min(PASSWORD_MIN_LENGTH, rule('register.password_short'))
  .max(PASSWORD_MAX_LENGTH, rule('register.password_long'))
  .regex(/\d/, rule('register.password_digit'));

const text = (key: string, max: number) =>
  z
    .string({ error: rule(key) })
    .trim()
    .min(1, rule(key))
    .max(max, rule(key));
const choice = <Values extends readonly [string, ...string[]]>(values: Values, key: string) =>
  z.enum(values, { error: rule(key) });

export const RegisterRequest = z
  .strictObject({
    first_name: text('register.first_name_invalid', 60),
    last_name: text('register.last_name_invalid', 60),
    phone: z
      .string({ error: rule('register.phone_invalid') })
      .trim()
      .max(24, rule('register.phone_invalid'))
      .regex(/^\+?[0-9][0-9 ()-]{5,22}$/, rule('register.phone_invalid')),
    email: EmailAddress,
    country: choice(SIGN_UP_COUNTRIES, 'register.country_invalid'),
    password: NewPassword,
    confirm_password: z.string({ error: rule('register.password_mismatch') }).max(200),
    promo_code: z
      .string({ error: rule('register.promo_code_invalid') })
      .trim()
      .max(40, rule('register.promo_code_invalid'))
      .regex(/^[A-Za-z0-9_-]*$/, rule('register.promo_code_invalid'))
      .optional(),
    agree_terms: z.literal(true, { error: rule('register.terms_required') }),
    store_name: text('register.store_name_invalid', 120),
    average_orders: choice(AVERAGE_ORDERS, 'register.average_orders_invalid'),
    warehouse_size: choice(WAREHOUSE_SIZES, 'register.warehouse_size_invalid'),
    accounting_system: choice(ACCOUNTING_SYSTEMS, 'register.accounting_system_invalid'),
    found_us: choice(FOUND_US, 'register.found_us_invalid'),
    looking_for: choice(LOOKING_FOR, 'register.looking_for_invalid'),
  })
  .refine((form) => form.password === form.confirm_password, {
    error: rule('register.password_mismatch'),
    path: ['confirm_password'],
  });
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const Otp = z
  .string({ error: rule('register.otp_format') })
  .regex(/^\d{6}$/, rule('register.otp_format'));

export const VerifyRequest = z.strictObject({ email: EmailAddress, otp: Otp });
export const ResendRequest = z.strictObject({ email: EmailAddress });

const CodeSent = z.object({ email: z.string(), expires_in: z.number().int() });

// ---- refusals ----

/** Sign-ups one address may make in an hour (an office behind one address still fits). */
export const SIGNUPS_PER_ADDRESS_PER_HOUR = 20;

const emailTaken = () => new ApiError(409, RegistrationCode.emailTaken, 'register.email_taken');
const wrongCode = () => new ApiError(400, RegistrationCode.otpWrong, 'register.otp_wrong');
const expiredCode = () => new ApiError(400, RegistrationCode.otpExpired, 'register.otp_expired');
const lockedCode = () => new ApiError(400, RegistrationCode.otpLocked, 'register.otp_locked');
const alreadyVerified = () =>
  new ApiError(409, RegistrationCode.alreadyVerified, 'register.already_verified');

// ---- the calls ----

export const registrationRoutes: FastifyPluginAsyncZod<RegistrationDeps> = async (app, deps) => {
  const { db, mailer } = deps;

  const findUser = (email: string) =>
    db
      .selectFrom('users')
      .select(['id', 'tenant_id', 'first_name', 'status', 'email_verified_at'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .executeTakeFirst();

  const mailCode = (language: Language, to: string, name: string, code: string) =>
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
      const form = request.body;
      // Each sign-up costs a password hash and a mail: an address gets a bounded number per hour.
      const recent = await db
        .selectFrom('sign_in_failures')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('scope', '=', 'signup')
        .where('key', '=', request.ip)
        .where('at', '>', new Date(Date.now() - 3_600_000))
        .executeTakeFirstOrThrow();
      if (Number(recent.n) >= SIGNUPS_PER_ADDRESS_PER_HOUR) {
        throw new ApiError(429, RegistrationCode.tooManyRequests, 'register.signups_per_address');
      }
      await db.insertInto('sign_in_failures').values({ scope: 'signup', key: request.ip }).execute();
      if (await findUser(form.email)) throw emailTaken();
      let account: { tenantId: string; userId: string };
      try {
        account = await createTenantWithOwner(db, {
          name: form.store_name,
          country: form.country,
          status: 'pending',
          promoCode: form.promo_code ? form.promo_code : null,
          business: {
            store_name: form.store_name,
            average_orders: form.average_orders,
            warehouse_size: form.warehouse_size,
            accounting_system: form.accounting_system,
            found_us: form.found_us,
            looking_for: form.looking_for,
          },
          owner: {
            email: form.email,
            firstName: form.first_name,
            lastName: form.last_name,
            phone: form.phone,
            password: form.password,
            language: request.language,
          },
        });
      } catch (error) {
        // Two sign-ups with one e-mail at the same moment: the unique index decides.
        if (violation(error, '23505')) throw emailTaken();
        throw error;
      }

      const code = newOtp();
      await db
        .insertInto('email_verifications')
        .values({
          user_id: account.userId,
          code_hash: await hashSecret(code),
          expires_at: sql<Date>`now() + make_interval(secs => ${OTP_TTL_SECONDS})`,
        })
        .execute();
      await db
        .insertInto('activity_log')
        .values({
          tenant_id: account.tenantId,
          user_id: account.userId,
          action: 'register',
          subject_type: 'user',
          subject_id: account.userId,
          detail: JSON.stringify({ email: form.email, country: form.country }),
        })
        .execute();
      await mailCode(request.language, form.email, form.first_name, code);
      return ok(request, { email: form.email, expires_in: OTP_TTL_SECONDS }, 'register.code_sent', {
        email: form.email,
      });
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
        response: { 200: Ok(z.object({ email: z.string() })), 400: ErrorAnswer, 409: ErrorAnswer },
      },
    },
    async (request) => {
      const { email, otp } = request.body;
      const user = await findUser(email);
      if (!user) {
        // Costs what a real check costs, and answers what a wrong code answers.
        await verifySecret(await decoyHash(), otp);
        throw wrongCode();
      }
      if (user.status !== 'pending') throw user.email_verified_at ? alreadyVerified() : wrongCode();

      // The try is counted before the code is checked, so parallel guesses cannot exceed the limit.
      const attempt = await db
        .updateTable('email_verifications')
        .set({ attempts: sql<number>`attempts + 1` })
        .where('user_id', '=', user.id)
        .where('attempts', '<', OTP_MAX_ATTEMPTS)
        .where('expires_at', '>', sql<Date>`now()`)
        .returning(['code_hash', 'attempts'])
        .executeTakeFirst();
      if (!attempt) {
        const row = await db
          .selectFrom('email_verifications')
          .select('attempts')
          .where('user_id', '=', user.id)
          .executeTakeFirst();
        throw row && row.attempts >= OTP_MAX_ATTEMPTS ? lockedCode() : expiredCode();
      }
      if (!(await verifySecret(attempt.code_hash, otp))) {
        throw attempt.attempts >= OTP_MAX_ATTEMPTS ? lockedCode() : wrongCode();
      }

      await db.transaction().execute(async (trx) => {
        const used = await trx
          .deleteFrom('email_verifications')
          .where('user_id', '=', user.id)
          .executeTakeFirst();
        if (used.numDeletedRows === 0n) return; // a parallel request with the same code won
        await trx
          .updateTable('users')
          .set({ status: 'active', email_verified_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
          .where('id', '=', user.id)
          .where('status', '=', 'pending')
          .execute();
        if (user.tenant_id) {
          await trx
            .updateTable('tenants')
            .set({ status: 'active' })
            .where('id', '=', user.tenant_id)
            .where('status', '=', 'pending')
            .execute();
        }
        await trx
          .insertInto('activity_log')
          .values({
            tenant_id: user.tenant_id,
            user_id: user.id,
            action: 'email_verified',
            subject_type: 'user',
            subject_id: user.id,
            detail: JSON.stringify({ email }),
          })
          .execute();
      });
      return ok(request, { email }, 'register.verified');
    },
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
      const { email } = request.body;
      const sent = () =>
        ok(request, { email, expires_in: OTP_TTL_SECONDS }, 'register.code_resent', { email });
      const user = await findUser(email);
      // An unknown or already verified e-mail gets the same answer, and no mail.
      if (user?.status !== 'pending') return sent();

      const limits = await db
        .selectFrom('email_verifications')
        .select([
          sql<number>`ceil(extract(epoch from last_sent_at + make_interval(secs => ${RESEND_COOLDOWN_SECONDS}) - now()))::int`.as(
            'cooldownLeft',
          ),
          sql<number>`CASE WHEN first_sent_at > now() - interval '1 hour' AND sends >= ${SENDS_PER_HOUR}
            THEN ceil(extract(epoch from first_sent_at + interval '1 hour' - now()))::int ELSE 0 END`.as(
            'hourLeft',
          ),
        ])
        .where('user_id', '=', user.id)
        .executeTakeFirst();
      refuseWhenTooSoon(reply, limits);

      const code = newOtp();
      const codeHash = await hashSecret(code);
      const expiresAt = sql<Date>`now() + make_interval(secs => ${OTP_TTL_SECONDS})`;
      // Checked again in the write itself, so two requests at the same moment send one code.
      const renewed = limits
        ? await db
            .updateTable('email_verifications')
            .set({
              code_hash: codeHash,
              expires_at: expiresAt,
              attempts: 0,
              last_sent_at: sql<Date>`now()`,
              sends: sql<number>`CASE WHEN first_sent_at <= now() - interval '1 hour' THEN 1 ELSE sends + 1 END`,
              first_sent_at: sql<Date>`CASE WHEN first_sent_at <= now() - interval '1 hour' THEN now() ELSE first_sent_at END`,
            })
            .where('user_id', '=', user.id)
            .where('last_sent_at', '<=', sql<Date>`now() - make_interval(secs => ${RESEND_COOLDOWN_SECONDS})`)
            .where((eb) =>
              eb.or([
                eb('first_sent_at', '<=', sql<Date>`now() - interval '1 hour'`),
                eb('sends', '<', SENDS_PER_HOUR),
              ]),
            )
            .executeTakeFirst()
            .then((result) => result.numUpdatedRows > 0n)
        : await db
            .insertInto('email_verifications')
            .values({ user_id: user.id, code_hash: codeHash, expires_at: expiresAt })
            .onConflict((oc) => oc.column('user_id').doNothing())
            .returning('user_id')
            .executeTakeFirst()
            .then((row) => row !== undefined);
      if (!renewed) {
        refuseWhenTooSoon(reply, { cooldownLeft: RESEND_COOLDOWN_SECONDS, hourLeft: 0 });
      }
      await mailCode(request.language, email, user.first_name, code);
      return sent();
    },
  );
};

/** A 429 with the wait in its message and in Retry-After. */
function refuseWhenTooSoon(
  reply: FastifyReply,
  limits: { cooldownLeft: number; hourLeft: number } | undefined,
): void {
  if (!limits) return;
  if (limits.hourLeft > 0) {
    reply.header('retry-after', String(limits.hourLeft));
    throw new ApiError(429, RegistrationCode.tooManyRequests, 'register.resend_hourly', {
      minutes: Math.max(1, Math.ceil(limits.hourLeft / 60)),
    });
  }
  if (limits.cooldownLeft > 0) {
    reply.header('retry-after', String(limits.cooldownLeft));
    throw new ApiError(429, RegistrationCode.tooManyRequests, 'register.resend_too_soon', {
      seconds: limits.cooldownLeft,
    });
  }
}
