import { RecoveryCode, RegistrationCode } from '@domain/access/accounts';
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
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { rule } from './rules';

/**
 * Self-registration (spec §2 "Login and sign-up screens", §5, §9) and the password and POS PIN reset calls: the
 * sign-up form, the code, and the reset links' forms.
 */

const invalid = (key: string, params?: Record<string, number>) => rule(RegistrationCode.invalid, key, params);

/** An e-mail address, trimmed and lower-cased (the users table is unique on lower(email)). */
export const EmailAddress = z
  .string({ error: invalid('register.email_invalid') })
  .trim()
  .toLowerCase()
  .max(TEXT_LIMITS.email, invalid('register.email_invalid'))
  .regex(z.regexes.email, invalid('register.email_invalid'));

/** Spec §5 and §9: more than 8 characters with at least one digit. */
export const NewPassword = z
  .string({ error: invalid('register.password_short') })
  .min(PASSWORD_MIN_LENGTH, invalid('register.password_short'))
  .max(PASSWORD_MAX_LENGTH, invalid('register.password_long'))
  .regex(/\d/, invalid('register.password_digit'));

const text = (key: string, max: number) =>
  z
    .string({ error: invalid(key, { max }) })
    .trim()
    .min(1, invalid(key, { max }))
    .max(max, invalid(key, { max }));
const ConfirmPassword = z.string({ error: invalid('register.password_mismatch') }).max(200);

/** The refinement of a secret typed twice: `second` must repeat `first`. */
const repeats = (
  first: string,
  second: string,
  key: string,
): [(form: Record<string, unknown>) => boolean, { error: string; path: string[] }] => [
  (form) => form[first] === form[second],
  { error: invalid(key), path: [second] },
];

const choice = <Values extends readonly [string, ...string[]]>(values: Values, key: string) =>
  z.enum(values, { error: invalid(key) });

export const RegisterRequest = z
  .strictObject({
    first_name: text('register.first_name_invalid', TEXT_LIMITS.name),
    last_name: text('register.last_name_invalid', TEXT_LIMITS.name),
    phone: z
      .string({ error: invalid('register.phone_invalid') })
      .trim()
      .max(24, invalid('register.phone_invalid'))
      .regex(/^\+?[0-9][0-9 ()-]{5,22}$/, invalid('register.phone_invalid')),
    email: EmailAddress,
    country: choice(SIGN_UP_COUNTRIES, 'register.country_invalid'),
    password: NewPassword,
    confirm_password: ConfirmPassword,
    promo_code: z
      .string({ error: invalid('register.promo_code_invalid') })
      .trim()
      .max(40, invalid('register.promo_code_invalid'))
      .regex(/^[A-Za-z0-9_-]*$/, invalid('register.promo_code_invalid'))
      .optional(),
    agree_terms: z.literal(true, { error: invalid('register.terms_required') }),
    store_name: text('register.store_name_invalid', TEXT_LIMITS.name),
    average_orders: choice(AVERAGE_ORDERS, 'register.average_orders_invalid'),
    warehouse_size: choice(WAREHOUSE_SIZES, 'register.warehouse_size_invalid'),
    accounting_system: choice(ACCOUNTING_SYSTEMS, 'register.accounting_system_invalid'),
    found_us: choice(FOUND_US, 'register.found_us_invalid'),
    looking_for: choice(LOOKING_FOR, 'register.looking_for_invalid'),
  })
  .refine(...repeats('password', 'confirm_password', 'register.password_mismatch'));
export type RegisterRequest = z.infer<typeof RegisterRequest>;

const sixDigits = (key: string) => z.string({ error: invalid(key) }).regex(/^\d{6}$/, invalid(key));
const Otp = sixDigits('register.otp_format');

export const VerifyRequest = z.strictObject({ email: EmailAddress, otp: Otp });
export type VerifyRequest = z.infer<typeof VerifyRequest>;
export const ResendRequest = z.strictObject({ email: EmailAddress });
export type ResendRequest = z.infer<typeof ResendRequest>;
export const VerifiedEmail = z.object({ email: z.string() });
export type VerifiedEmail = z.infer<typeof VerifiedEmail>;

export const CodeSent = z.object({ email: z.string(), expires_in: z.number().int() });
export type CodeSent = z.infer<typeof CodeSent>;

// ---- password and POS PIN recovery ----

export const ForgotRequest = ResendRequest;
export type ForgotRequest = z.infer<typeof ForgotRequest>;

const linkInvalid = rule(RecoveryCode.linkInvalid, 'recovery.link_invalid');
const LinkToken = z.string({ error: linkInvalid }).min(1, linkInvalid).max(200, linkInvalid);

export const PasswordResetRequest = z
  .strictObject({ token: LinkToken, password: NewPassword, confirm_password: ConfirmPassword })
  .refine(...repeats('password', 'confirm_password', 'register.password_mismatch'));

const Pin = sixDigits('recovery.pin_format');

const ConfirmPin = z.string({ error: invalid('recovery.pin_mismatch') }).max(20);
export const PinResetRequest = z
  .strictObject({ token: LinkToken, pin: Pin, confirm_pin: ConfirmPin })
  .refine(...repeats('pin', 'confirm_pin', 'recovery.pin_mismatch'));
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;
export type PinResetRequest = z.infer<typeof PinResetRequest>;
