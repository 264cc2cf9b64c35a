import type { CodeSent, RegisterRequest } from '@api/contracts/accounts';
import { openStartingPlaces } from '@commands/inventory/warehouses';
import {
  OTP_MAX_ATTEMPTS,
  OTP_TTL_SECONDS,
  RESEND_COOLDOWN_SECONDS,
  refuseAccount,
  SENDS_PER_HOUR,
  SIGNUPS_PER_ADDRESS_PER_HOUR,
} from '@domain/access/accounts';
import type { Database } from '@infra/db';
import { violation } from '@infra/db/errors';
import { type Kysely, sql } from 'kysely';
import { decoyHash, hashSecret, newOtp, verifySecret } from '../support/secrets';
import { createTenantWithOwner } from './seed';

/**
 * Self-registration (spec §2 "Login and sign-up screens", §5, §9): the sign-up form creates a pending seller account
 * on the trial package and mails a 6-digit code; entering the code activates the owner and the account. Codes are
 * kept as argon2id hashes, live 10 minutes, die after 5 tries, and a new one can be asked for once a minute and five
 * times an hour. Answers never tell whether an e-mail is registered beyond what the sign-up form itself must say.
 */

export interface RegistrationDeps {
  db: Kysely<Database>;
  /** Mails the code, in the caller's language. */
  mailCode(to: string, name: string, code: string): Promise<void>;
  /** How long the caller should wait before asking again (the answer's Retry-After). */
  retryAfter?(seconds: number): void;
}

/** Who signs up: their address (bounded sign-ups an hour) and language. */
export interface Visitor {
  address: string;
  language: string;
}

const findUser = (db: Kysely<Database>, email: string) =>
  db
    .selectFrom('users')
    .select(['id', 'tenant_id', 'first_name', 'status', 'email_verified_at'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();

/** A pending seller account on the trial package, and its code mailed. */
export async function register(
  deps: RegistrationDeps,
  visitor: Visitor,
  form: RegisterRequest,
): Promise<CodeSent> {
  const { db } = deps;
  // Each sign-up costs a password hash and a mail: an address gets a bounded number per hour.
  const recent = await db
    .selectFrom('sign_in_failures')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('scope', '=', 'signup')
    .where('key', '=', visitor.address)
    .where('at', '>', new Date(Date.now() - 3_600_000))
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= SIGNUPS_PER_ADDRESS_PER_HOUR) throw refuseAccount('SIGNUPS_PER_ADDRESS');
  await db.insertInto('sign_in_failures').values({ scope: 'signup', key: visitor.address }).execute();
  if (await findUser(db, form.email)) throw refuseAccount('EMAIL_TAKEN');
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
        language: visitor.language,
      },
    });
  } catch (error) {
    // Two sign-ups with one e-mail at the same moment: the unique index decides.
    if (violation(error, '23505')) throw refuseAccount('EMAIL_TAKEN');
    throw error;
  }
  await openStartingPlaces(db, account);

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
  await deps.mailCode(form.email, form.first_name, code);
  return { email: form.email, expires_in: OTP_TTL_SECONDS };
}

/** The e-mail verified with its code: activates the owner and the seller account. */
export async function verifyEmail(
  { db }: Pick<RegistrationDeps, 'db'>,
  input: { email: string; otp: string },
): Promise<{ email: string }> {
  const { email, otp } = input;
  const user = await findUser(db, email);
  if (!user) {
    // Costs what a real check costs, and answers what a wrong code answers.
    await verifySecret(await decoyHash(), otp);
    throw refuseAccount('OTP_WRONG');
  }
  if (user.status !== 'pending')
    throw refuseAccount(user.email_verified_at ? 'ALREADY_VERIFIED' : 'OTP_WRONG');

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
    throw refuseAccount(row && row.attempts >= OTP_MAX_ATTEMPTS ? 'OTP_LOCKED' : 'OTP_EXPIRED');
  }
  if (!(await verifySecret(attempt.code_hash, otp))) {
    throw refuseAccount(attempt.attempts >= OTP_MAX_ATTEMPTS ? 'OTP_LOCKED' : 'OTP_WRONG');
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
  return { email };
}

/** A 429 with the wait in its message and in Retry-After. */
function refuseWhenTooSoon(
  deps: RegistrationDeps,
  limits: { cooldownLeft: number; hourLeft: number } | undefined,
): void {
  if (!limits) return;
  if (limits.hourLeft > 0) {
    deps.retryAfter?.(limits.hourLeft);
    throw refuseAccount('RESEND_HOURLY', { count: Math.max(1, Math.ceil(limits.hourLeft / 60)) });
  }
  if (limits.cooldownLeft > 0) {
    deps.retryAfter?.(limits.cooldownLeft);
    throw refuseAccount('RESEND_TOO_SOON', { count: limits.cooldownLeft });
  }
}

/** A new code mailed (once a minute, five times an hour); the old code stops working. */
export async function resendCode(deps: RegistrationDeps, input: { email: string }): Promise<CodeSent> {
  const { db } = deps;
  const { email } = input;
  const sent = { email, expires_in: OTP_TTL_SECONDS };
  const user = await findUser(db, email);
  // An unknown or already verified e-mail gets the same answer, and no mail.
  if (user?.status !== 'pending') return sent;

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
  refuseWhenTooSoon(deps, limits);

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
  if (!renewed) refuseWhenTooSoon(deps, { cooldownLeft: RESEND_COOLDOWN_SECONDS, hourLeft: 0 });
  await deps.mailCode(email, user.first_name, code);
  return sent;
}
