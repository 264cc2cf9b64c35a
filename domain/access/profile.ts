import { type ErrorTable, refuser } from '@domain/shared/errors';

/**
 * A user's own settings from the header menu: their profile, password and language. The spec's catalogue (§8) lists
 * no codes for them, so these follow the team's pattern (domain/access/team.ts) in a range of their own.
 */
export const ProfileCode = {
  currentPasswordWrong: 450,
  samePassword: 451,
  languageInvalid: 452,
  nothingToChange: 453,
} as const;

export type ProfileErrorCode = 'CURRENT_PASSWORD_WRONG' | 'SAME_PASSWORD';

export const profileErrors = {
  CURRENT_PASSWORD_WRONG: {
    status: 400,
    code: ProfileCode.currentPasswordWrong,
    key: 'profile.current_password_wrong',
  },
  SAME_PASSWORD: { status: 400, code: ProfileCode.samePassword, key: 'profile.same_password' },
} satisfies ErrorTable<ProfileErrorCode>;

export const refuseProfile = refuser(profileErrors);
