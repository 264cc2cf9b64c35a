import { ProfileCode } from '@domain/access/profile';
import { TeamCode } from '@domain/access/team';
import { LANGUAGES } from '@domain/platform/languages';
import { z } from 'zod';
import { rule } from './rules';
import { userFields } from './team';

/**
 * The header menu's user settings (spec §2, "Sidebar and header": user settings; "Settings": user detail, change
 * password): the signed-in user's own name and phone, password and language, checked as Settings → users checks a
 * user's. The e-mail is the verified sign-in identity and is not changed here.
 */

const passwordMismatch = rule(TeamCode.passwordMismatch, 'users.password_mismatch');
const currentRequired = rule(ProfileCode.currentPasswordWrong, 'profile.current_password_wrong');

export const ProfileChanges = z
  .strictObject({
    first_name: userFields.first_name,
    last_name: userFields.last_name,
    phone: userFields.phone,
  })
  .partial()
  .refine(
    (changes) => Object.keys(changes).length > 0,
    rule(ProfileCode.nothingToChange, 'profile.nothing_to_change'),
  );
export type ProfileChanges = z.infer<typeof ProfileChanges>;

/** The password rule of spec §5 (a digit, more than 8 characters), the current password checked. */
export const PasswordChange = z
  .strictObject({
    current_password: z.string({ error: currentRequired }).min(1, currentRequired).max(200, currentRequired),
    password: userFields.password,
    confirm_password: userFields.confirm_password,
  })
  .refine((body) => body.password === body.confirm_password, {
    path: ['confirm_password'],
    error: passwordMismatch,
  });
export type PasswordChange = z.infer<typeof PasswordChange>;

export const PasswordChanged = z.object({
  /** How many other sign-ins of this user were ended. */
  signed_out_elsewhere: z.number().int(),
});
export type PasswordChanged = z.infer<typeof PasswordChanged>;

export const LanguageChange = z.strictObject({
  language: z.enum(LANGUAGES, { error: rule(ProfileCode.languageInvalid, 'profile.language_invalid') }),
});
export type LanguageChange = z.infer<typeof LanguageChange>;
