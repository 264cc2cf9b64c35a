import { ACCOUNT_USER_KINDS, PARTNER_KINDS } from '@domain/access/kinds';
import { isPermissionKey, PERMISSION_KEYS, type PermissionKey } from '@domain/access/permissions';
import { passwordFollowsRule } from '@domain/access/sign-up';
import { GROUP_NAME_MAX, TeamCode, USERNAME_PATTERN } from '@domain/access/team';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';
import { rule } from './rules';

/** Settings → users and user groups: the owner's sub-users and the groups whose permission keys (spec §6) they hold. */
export { DeletedRecord } from './ids';

// ---- sub-users ----

const usernameInvalid = rule(TeamCode.usernameInvalid, 'users.username_invalid');
const emailInvalid = rule(TeamCode.emailInvalid, 'users.email_invalid');
const firstNameRequired = rule(TeamCode.firstNameRequired, 'users.first_name_required');
const passwordRule = rule(TeamCode.passwordRule, 'users.password_rule');
const passwordMismatch = rule(TeamCode.passwordMismatch, 'users.password_mismatch');
const groupRequired = rule(TeamCode.groupNotFound, 'users.group_required');
const statusInvalid = rule(400, 'users.status_invalid');
const tooLong = (max: number) => rule(400, 'users.too_long', { max });

/** A user's fields as every form that edits a user checks them (Settings → users, the header's user settings). */
export const userFields = {
  username: z
    .string({ error: usernameInvalid })
    .trim()
    .toLowerCase()
    .max(50, usernameInvalid)
    .regex(USERNAME_PATTERN, usernameInvalid),
  email: z
    .string({ error: emailInvalid })
    .trim()
    .toLowerCase()
    .max(TEXT_LIMITS.email, emailInvalid)
    .regex(z.regexes.email, emailInvalid),
  first_name: z
    .string({ error: firstNameRequired })
    .trim()
    .min(1, firstNameRequired)
    .max(TEXT_LIMITS.name, tooLong(TEXT_LIMITS.name)),
  last_name: z.string().trim().max(TEXT_LIMITS.name, tooLong(TEXT_LIMITS.name)),
  phone: z
    .string()
    .trim()
    .max(TEXT_LIMITS.phone, tooLong(TEXT_LIMITS.phone))
    .regex(/^[+0-9 ()-]*$/, rule(400, 'users.phone_invalid')),
  password: z
    .string({ error: passwordRule })
    .max(200, tooLong(200))
    .refine(passwordFollowsRule, passwordRule),
  confirm_password: z.string({ error: passwordMismatch }).max(200, tooLong(200)),
  group_id: z.string({ error: groupRequired }).min(1, groupRequired).max(64),
  status: z.enum(['active', 'inactive'], { error: statusInvalid }),
};

/** Who a new user is: a sub-user (staff, in a group) or one of the partner kinds (their kind's fixed scope). */
const NewUserKind = z.enum(['subuser', ...PARTNER_KINDS], { error: rule(400, 'account.kind_invalid') });

export const NewSubUser = z
  .strictObject({
    ...userFields,
    kind: NewUserKind.default('subuser'),
    // A sub-user's permissions are their group's; a partner's are their kind's, so they have none.
    group_id: userFields.group_id.optional(),
    last_name: userFields.last_name.default(''),
    phone: userFields.phone.default(''),
  })
  .superRefine((body, ctx) => {
    if (body.password !== body.confirm_password) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: passwordMismatch });
    }
    if (body.kind === 'subuser' && body.group_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['group_id'], message: groupRequired });
    }
  });
export type NewSubUser = z.infer<typeof NewSubUser>;

/** An edit: any of the fields; a new password comes with its confirmation. */
export const SubUserChanges = z
  .strictObject(userFields)
  .partial()
  .superRefine((changes, ctx) => {
    if (Object.keys(changes).length === 0) {
      ctx.addIssue({ code: 'custom', message: rule(TeamCode.nothingToChange, 'users.nothing_to_change') });
    }
    if (
      (changes.password !== undefined || changes.confirm_password !== undefined) &&
      changes.password !== changes.confirm_password
    ) {
      ctx.addIssue({ code: 'custom', path: ['confirm_password'], message: passwordMismatch });
    }
  });
export type SubUserChanges = z.infer<typeof SubUserChanges>;

export const TeamUser = z.object({
  id: z.string(),
  kind: z.enum(ACCOUNT_USER_KINDS),
  username: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  status: z.enum(['pending', 'active', 'inactive']),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** False for the owner: listed beside the other users, managed elsewhere. */
  editable: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TeamUser = z.infer<typeof TeamUser>;

/** The users grid: text filters on username, e-mail and name, a set filter on status, a free-text search. */
export const UsersFilterModel = {
  username: TextFilter,
  email: TextFilter,
  name: TextFilter,
  status: setFilter(['active', 'inactive', 'pending']),
  kind: setFilter(ACCOUNT_USER_KINDS),
};

export const USER_SORT_COLUMNS = [
  'username',
  'email',
  'name',
  'kind',
  'status',
  'group',
  'created_at',
] as const;
export type UserSortColumn = (typeof USER_SORT_COLUMNS)[number];

export const UsersGridQuery = gridQuery(USER_SORT_COLUMNS, UsersFilterModel);
export type UsersGridQuery = z.infer<typeof UsersGridQuery>;

// ---- user groups ----

const GroupName = z
  .string({ error: rule(TeamCode.groupNameRequired, 'groups.name_required') })
  .trim()
  .min(1, rule(TeamCode.groupNameRequired, 'groups.name_required'))
  .max(GROUP_NAME_MAX, rule(TeamCode.groupNameTooLong, 'groups.name_too_long', { max: GROUP_NAME_MAX }));

const GroupPermissions = z
  .array(z.string({ error: rule(TeamCode.permissionsInvalid, 'groups.permissions_invalid') }).max(100), {
    error: rule(TeamCode.permissionsInvalid, 'groups.permissions_invalid'),
  })
  .max(PERMISSION_KEYS.length * 2, rule(TeamCode.permissionsInvalid, 'groups.permissions_invalid'))
  .superRefine((keys, ctx) => {
    keys.forEach((key, index) => {
      if (!isPermissionKey(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          input: key,
          message: rule(TeamCode.unknownPermission, 'groups.unknown_permission', { key }),
        });
      }
    });
  })
  .transform((keys) => [...new Set(keys)] as PermissionKey[]);

export const GroupBody = z.strictObject({ name: GroupName, permissions: GroupPermissions });
export type GroupBody = z.infer<typeof GroupBody>;
export const GroupChanges = GroupBody.partial().refine(
  (changes) => changes.name !== undefined || changes.permissions !== undefined,
  rule(TeamCode.nothingToChange, 'groups.nothing_to_change'),
);
export type GroupChanges = z.infer<typeof GroupChanges>;

export const Group = z.object({
  id: z.string(),
  name: z.string(),
  permissions: z.array(z.string()),
  member_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Group = z.infer<typeof Group>;

export const PermissionCatalogue = z.object({
  areas: z.array(z.object({ area: z.string(), keys: z.array(z.string()) })),
});
export type PermissionCatalogue = z.infer<typeof PermissionCatalogue>;
