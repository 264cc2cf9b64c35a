import { type Activity, logActivity as logSharedActivity } from '@api/activity';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/**
 * What the sub-user and group routes share: their result codes, the id parameter, and the activity-log row every
 * change writes. The spec's catalogue (§8) lists no codes for users and groups, so these follow its pattern: 0 is
 * success, 4xx codes name what went wrong.
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

export { IdParams, isUuid } from '@api/ids';
export { violation } from '@infra/db/errors';

export type TeamActivity = Activity<'user' | 'user_group'> & { tenantId: string; userId: string };

/** An activity-log row for a change to a user or a group. */
export const logActivity = (db: Kysely<Database>, activity: TeamActivity) => logSharedActivity(db, activity);

export const iso = (value: Date | null) => (value ? value.toISOString() : null);
