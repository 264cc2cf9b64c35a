import { type ErrorTable, refuser } from '@domain/shared/errors';
import { TEXT_LIMITS } from '@domain/shared/limits';

/**
 * The owner's team: sub-users and the groups that give them their permissions. The spec's catalogue (§8) lists no
 * codes for users and groups, so these follow its pattern: 0 is success, 4xx codes name what went wrong.
 */
export const TeamCode = {
  // sub-users
  usernameInvalid: 420,
  usernameTaken: 421,
  emailTaken: 422,
  passwordRule: 423,
  passwordMismatch: 424,
  groupNotFound: 425,
  emailInvalid: 426,
  firstNameRequired: 427,
  nothingToChange: 428,
  /** One sub-user more than the package allows (HTTP 403). */
  subUserLimit: 430,
  /** The owner is listed with the sub-users but is not managed from here (HTTP 403). */
  ownerNotEditable: 431,
  // groups
  groupNameRequired: 440,
  unknownPermission: 441,
  groupNameTaken: 442,
  groupInUse: 443,
  groupNameTooLong: 444,
  permissionsInvalid: 445,
} as const;

export const SUB_USER_LIMIT_REACHED = TeamCode.subUserLimit;

/** The user name of a sub-user: what they sign in with beside their e-mail. */
export const USERNAME_PATTERN = /^[a-z0-9._-]{3,50}$/;
export const GROUP_NAME_MAX = TEXT_LIMITS.name;

export type TeamErrorCode =
  | 'NOT_FOUND'
  | 'USERNAME_TAKEN'
  | 'EMAIL_TAKEN'
  | 'GROUP_NOT_FOUND'
  | 'OWNER_NOT_EDITABLE'
  | 'SUB_USER_LIMIT'
  | 'GROUP_NAME_TAKEN'
  | 'GROUP_IN_USE';

export const teamErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  USERNAME_TAKEN: { status: 409, code: TeamCode.usernameTaken, key: 'users.username_taken' },
  EMAIL_TAKEN: { status: 409, code: TeamCode.emailTaken, key: 'users.email_taken' },
  GROUP_NOT_FOUND: { status: 400, code: TeamCode.groupNotFound, key: 'users.group_not_found' },
  OWNER_NOT_EDITABLE: { status: 403, code: TeamCode.ownerNotEditable, key: 'users.owner_not_editable' },
  SUB_USER_LIMIT: { status: 403, code: TeamCode.subUserLimit, key: 'users.limit_reached' },
  GROUP_NAME_TAKEN: { status: 409, code: TeamCode.groupNameTaken, key: 'groups.name_taken' },
  GROUP_IN_USE: { status: 409, code: TeamCode.groupInUse, key: 'groups.in_use' },
} satisfies ErrorTable<TeamErrorCode>;

export const refuseTeam = refuser(teamErrors);

/** The provider's own users (admins) against a seller account's (owner, sub-users). */
export const isAdminKind = (kind: string) => kind === 'admin' || kind === 'subadmin';
