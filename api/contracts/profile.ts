import { ProfileCode } from '@domain/access/profile';
import { passwordFollowsRule } from '@domain/access/sign-up';
import { TeamCode } from '@domain/access/team';
import { LANGUAGES } from '@domain/platform/languages';
import { z } from 'zod';
import { rule } from './rules';

/**
 * The header menu's user settings (spec §2, "Sidebar and header": user settings; "Settings": user detail, change
 * password): the signed-in user's own name and phone, password and language. The e-mail is the verified sign-in
 * identity and is not changed here.
 */

const firstNameRequired = rule(TeamCode.firstNameRequired, 'users.first_name_required');
const tooLong = (max: number) => rule(400, 'users.too_long', { max });
const passwordRule = rule(TeamCode.passwordRule, 'users.password_rule');
const passwordMismatch = rule(TeamCode.passwordMismatch, 'users.password_mismatch');
const currentRequired = rule(ProfileCode.currentPasswordWrong, 'profile.current_password_wrong');

export const ProfileChanges = z
  .strictObject({
    first_name: z
      .string({ error: firstNameRequired })
      .trim()
      .min(1, firstNameRequired)
      .max(100, tooLong(100)),
    last_name: z.string().trim().max(100, tooLong(100)),
    phone: z
      .string()
      .trim()
      .max(30, tooLong(30))
      .regex(/^[+0-9 ()-]*$/, rule(400, 'users.phone_invalid')),
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
    current_password: z.string({ error: currentRequired }).min(1, currentRequired).max(200, tooLong(200)),
    password: z
      .string({ error: passwordRule })
      .max(200, tooLong(200))
      .refine(passwordFollowsRule, passwordRule),
    confirm_password: z.string({ error: passwordMismatch }).max(200, tooLong(200)),
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
