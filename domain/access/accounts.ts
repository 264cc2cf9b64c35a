import { type ErrorTable, refuser } from '@domain/shared/errors';

/**
 * Self-registration and recovery (spec §2, §5, §9): a 6-digit code that lives 10 minutes and dies after 5 tries,
 * a new one at most once a minute and five times an hour; a single-use reset link valid for an hour, at most one a
 * minute per account.
 */

export const OTP_TTL_SECONDS = 10 * 60;
export const OTP_MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_SECONDS = 60;
export const SENDS_PER_HOUR = 5;
/** Sign-ups one address may make in an hour (an office behind one address still fits). */
export const SIGNUPS_PER_ADDRESS_PER_HOUR = 20;

export const RESET_LINK_TTL_SECONDS = 60 * 60;
export const FORGOT_COOLDOWN_SECONDS = 60;

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

/** Result codes of the reset calls, beyond 0 (success) and 400 (a field is invalid). */
export const RecoveryCode = {
  invalid: 400,
  linkInvalid: 440,
  linkExpired: 441,
  linkUsed: 442,
  tooManyAttempts: 429,
} as const;

export type AccountErrorCode =
  | 'EMAIL_TAKEN'
  | 'OTP_WRONG'
  | 'OTP_EXPIRED'
  | 'OTP_LOCKED'
  | 'ALREADY_VERIFIED'
  | 'SIGNUPS_PER_ADDRESS'
  | 'RESEND_HOURLY'
  | 'RESEND_TOO_SOON'
  | 'LINK_INVALID'
  | 'LINK_EXPIRED'
  | 'LINK_USED'
  | 'TOO_MANY_ATTEMPTS';

export const accountErrors = {
  EMAIL_TAKEN: { status: 409, code: RegistrationCode.emailTaken, key: 'register.email_taken' },
  OTP_WRONG: { status: 400, code: RegistrationCode.otpWrong, key: 'register.otp_wrong' },
  OTP_EXPIRED: { status: 400, code: RegistrationCode.otpExpired, key: 'register.otp_expired' },
  OTP_LOCKED: { status: 400, code: RegistrationCode.otpLocked, key: 'register.otp_locked' },
  ALREADY_VERIFIED: { status: 409, code: RegistrationCode.alreadyVerified, key: 'register.already_verified' },
  SIGNUPS_PER_ADDRESS: {
    status: 429,
    code: RegistrationCode.tooManyRequests,
    key: 'register.signups_per_address',
  },
  RESEND_HOURLY: { status: 429, code: RegistrationCode.tooManyRequests, key: 'register.resend_hourly' },
  RESEND_TOO_SOON: { status: 429, code: RegistrationCode.tooManyRequests, key: 'register.resend_too_soon' },
  LINK_INVALID: { status: 400, code: RecoveryCode.linkInvalid, key: 'recovery.link_invalid' },
  LINK_EXPIRED: { status: 400, code: RecoveryCode.linkExpired, key: 'recovery.link_expired' },
  LINK_USED: { status: 400, code: RecoveryCode.linkUsed, key: 'recovery.link_used' },
  TOO_MANY_ATTEMPTS: { status: 429, code: RecoveryCode.tooManyAttempts, key: 'recovery.too_many_attempts' },
} satisfies ErrorTable<AccountErrorCode>;

export const refuseAccount = refuser(accountErrors);
