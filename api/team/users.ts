import { randomUUID } from 'node:crypto';
import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { hashSecret } from '@api/auth/secrets';
import { seller } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
import { PackageLimits } from '@domain/access/packages';
import { passwordFollowsRule } from '@domain/access/sign-up';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { IdParams, iso, isUuid, logActivity, TeamCode, violation } from './common';
import { listUsers, selectTeamUsers, type TeamUserRow, UsersGridQuery } from './users-list';

/**
 * Sub-users of a seller account: created, edited, deactivated and deleted by the owner only. Each belongs to one
 * group of the account, whose keys are their permissions. The package caps how many sub-users an account has: every
 * sub-user counts, active or not, so reactivating one never needs a free slot (the usage panel counts the same way).
 * Deactivating a user, changing their password or deleting them revokes their tokens at once.
 */

export const USERNAME_PATTERN = /^[a-z0-9._-]{3,50}$/;

const usernameInvalid = invalid(TeamCode.usernameInvalid, 'users.username_invalid');
const emailInvalid = invalid(TeamCode.emailInvalid, 'users.email_invalid');
const firstNameRequired = invalid(TeamCode.firstNameRequired, 'users.first_name_required');
const passwordRule = invalid(TeamCode.passwordRule, 'users.password_rule');
const passwordMismatch = invalid(TeamCode.passwordMismatch, 'users.password_mismatch');
const groupRequired = invalid(TeamCode.groupNotFound, 'users.group_required');
const statusInvalid = invalid(400, 'users.status_invalid');
const tooLong = (max: number) => invalid(400, 'users.too_long', { max });

const fields = {
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
    .max(254, emailInvalid)
    .regex(z.regexes.email, emailInvalid),
  first_name: z.string({ error: firstNameRequired }).trim().min(1, firstNameRequired).max(100, tooLong(100)),
  last_name: z.string().trim().max(100, tooLong(100)),
  phone: z
    .string()
    .trim()
    .max(30, tooLong(30))
    .regex(/^[+0-9 ()-]*$/, invalid(400, 'users.phone_invalid')),
  password: z
    .string({ error: passwordRule })
    .max(200, tooLong(200))
    .refine(passwordFollowsRule, passwordRule),
  confirm_password: z.string({ error: passwordMismatch }).max(200, tooLong(200)),
  group_id: z.string({ error: groupRequired }).min(1, groupRequired).max(64),
  status: z.enum(['active', 'inactive'], { error: statusInvalid }),
};

export const NewSubUser = z
  .strictObject({
    ...fields,
    last_name: fields.last_name.default(''),
    phone: fields.phone.default(''),
  })
  .refine((body) => body.password === body.confirm_password, {
    path: ['confirm_password'],
    error: passwordMismatch,
  });
export type NewSubUser = z.infer<typeof NewSubUser>;

/** An edit: any of the fields; a new password comes with its confirmation. */
export const SubUserChanges = z
  .strictObject(fields)
  .partial()
  .superRefine((changes, ctx) => {
    if (Object.keys(changes).length === 0) {
      ctx.addIssue({ code: 'custom', message: invalid(TeamCode.nothingToChange, 'users.nothing_to_change') });
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
  kind: z.enum(['owner', 'subuser']),
  username: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  status: z.enum(['pending', 'active', 'inactive']),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** False for the owner: listed beside the sub-users, managed elsewhere. */
  editable: z.boolean(),
  last_sign_in_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type TeamUser = z.infer<typeof TeamUser>;

export function teamUser(row: TeamUserRow): TeamUser {
  return {
    id: row.id,
    kind: row.kind === 'owner' ? 'owner' : 'subuser',
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    status: row.status,
    group: row.group_id && row.group_name ? { id: row.group_id, name: row.group_name } : null,
    editable: row.kind === 'subuser',
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

const conflicts = { 409: ErrorAnswer };
const groupNotFound = () => new ApiError(400, TeamCode.groupNotFound, 'users.group_not_found');
const ownerNotEditable = () => new ApiError(403, TeamCode.ownerNotEditable, 'users.owner_not_editable');

/** Turns a unique or foreign-key violation into the refusal it means; anything else is passed on. */
function refusalFor(error: unknown, values: { username?: string; email?: string }): unknown {
  if (violation(error, '23505', 'users_username_idx'))
    return new ApiError(409, TeamCode.usernameTaken, 'users.username_taken', {
      username: values.username ?? '',
    });
  if (violation(error, '23505', 'users_email_idx'))
    return new ApiError(409, TeamCode.emailTaken, 'users.email_taken', { email: values.email ?? '' });
  if (violation(error, '23503', 'users_group_id_fkey')) return groupNotFound();
  return error;
}

async function requireGroup(db: Kysely<Database>, tenantId: string, groupId: string): Promise<void> {
  const group = isUuid(groupId)
    ? await db
        .selectFrom('user_groups')
        .select('id')
        .where('id', '=', groupId)
        .where('tenant_id', '=', tenantId)
        .executeTakeFirst()
    : undefined;
  if (!group) throw groupNotFound();
}

async function revokeTokens(db: Kysely<Database>, userId: string): Promise<void> {
  await db
    .updateTable('access_tokens')
    .set({ revoked_at: new Date() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

export const userRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  const findUser = async (tenantId: string, id: string): Promise<TeamUser> => {
    const row = isUuid(id)
      ? await selectTeamUsers(db, tenantId).where('u.id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) throw notFound();
    return teamUser(row);
  };

  /** The user row to change, locked; the owner is refused, another account's user is missing. */
  const lockSubUser = async (trx: Kysely<Database>, tenantId: string, id: string) => {
    const user = isUuid(id)
      ? await trx
          .selectFrom('users')
          .select(['id', 'kind', 'status', 'group_id', 'username', 'email'])
          .where('id', '=', id)
          .where('tenant_id', '=', tenantId)
          .where('kind', 'in', ['owner', 'subuser'])
          .forUpdate()
          .executeTakeFirst()
      : undefined;
    if (!user) throw notFound();
    if (user.kind !== 'subuser') throw ownerNotEditable();
    return user;
  };

  app.get(
    '/api/setting/users',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: "The account's users for ag-grid's Infinite Row Model (the owner is listed, not editable)",
        querystring: UsersGridQuery,
        response: { 200: Ok(GridPage(TeamUser)), ...refusals },
      },
    },
    async (request) => {
      const page = await listUsers(db, seller(request).tenantId, request.query);
      return ok(request, { rows: page.rows.map(teamUser), lastRow: page.lastRow });
    },
  );

  app.get(
    '/api/setting/users/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'One user of the account',
        params: IdParams,
        response: { 200: Ok(TeamUser), ...refusals },
      },
    },
    async (request) => ok(request, await findUser(seller(request).tenantId, request.params.id)),
  );

  app.post(
    '/api/setting/users',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: "Create a sub-user, within the package's sub-user limit (403, code 430, past it)",
        body: NewSubUser,
        response: { 200: Ok(TeamUser), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const body = request.body;
      // Hashing is slow on purpose: done before the transaction, so the account's lock is held briefly.
      const passwordHash = await hashSecret(body.password);
      const id = randomUUID();
      try {
        await db.transaction().execute(async (trx) => {
          // One creation at a time per account, so two requests cannot both take the last free slot.
          await trx
            .selectFrom('tenants')
            .select('id')
            .where('id', '=', tenantId)
            .forUpdate()
            .executeTakeFirstOrThrow();
          await requireGroup(trx, tenantId, body.group_id);
          const pkg = await trx
            .selectFrom('tenants as n')
            .innerJoin('packages as p', 'p.id', 'n.package_id')
            .select(['p.name', 'p.limits'])
            .where('n.id', '=', tenantId)
            .executeTakeFirstOrThrow();
          const limit = PackageLimits.parse(pkg.limits).subUsers;
          if (limit !== null) {
            const count = await trx
              .selectFrom('users')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .where('tenant_id', '=', tenantId)
              .where('kind', '=', 'subuser')
              .executeTakeFirstOrThrow();
            if (Number(count.n) >= limit) {
              throw new ApiError(403, TeamCode.subUserLimit, 'users.limit_reached', {
                package: pkg.name,
                limit,
              });
            }
          }
          await trx
            .insertInto('users')
            .values({
              id,
              tenant_id: tenantId,
              kind: 'subuser',
              username: body.username,
              email: body.email,
              first_name: body.first_name,
              last_name: body.last_name,
              phone: body.phone,
              password_hash: passwordHash,
              status: body.status,
              group_id: body.group_id,
              // The owner vouches for the address; the sub-user signs in with it or the username at once.
              email_verified_at: new Date(),
            })
            .execute();
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: 'user.created',
            subjectType: 'user',
            subjectId: id,
            detail: {
              username: body.username,
              email: body.email,
              group_id: body.group_id,
              status: body.status,
            },
          });
        });
      } catch (error) {
        throw refusalFor(error, body);
      }
      return ok(request, await findUser(tenantId, id), 'users.created');
    },
  );

  app.put(
    '/api/setting/users/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: "Edit a sub-user's details, group, status or password (deactivation revokes their tokens)",
        params: IdParams,
        body: SubUserChanges,
        response: { 200: Ok(TeamUser), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const { id } = request.params;
      const { password, confirm_password: _confirmation, ...changes } = request.body;
      const passwordHash = password === undefined ? undefined : await hashSecret(password);
      try {
        await db.transaction().execute(async (trx) => {
          const before = await lockSubUser(trx, tenantId, id);
          if (changes.group_id !== undefined) await requireGroup(trx, tenantId, changes.group_id);
          await trx
            .updateTable('users')
            .set({
              ...changes,
              ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
              updated_at: new Date(),
            })
            .where('id', '=', id)
            .execute();
          const deactivated = changes.status === 'inactive' && before.status !== 'inactive';
          const tokensRevoked = deactivated || passwordHash !== undefined;
          if (tokensRevoked) await revokeTokens(trx, id);
          await logActivity(trx, {
            tenantId,
            userId: session.userId,
            action: 'user.updated',
            subjectType: 'user',
            subjectId: id,
            detail: {
              fields: [...Object.keys(changes), ...(passwordHash === undefined ? [] : ['password'])],
              ...(changes.status !== undefined && changes.status !== before.status
                ? { status: { from: before.status, to: changes.status } }
                : {}),
              ...(changes.group_id !== undefined && changes.group_id !== before.group_id
                ? { group_id: { from: before.group_id, to: changes.group_id } }
                : {}),
              tokens_revoked: tokensRevoked,
            },
          });
        });
      } catch (error) {
        throw refusalFor(error, changes);
      }
      return ok(request, await findUser(tenantId, id), 'users.updated');
    },
  );

  app.delete(
    '/api/setting/users/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'Delete a sub-user; their tokens stop working at once',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { id } = request.params;
      await db.transaction().execute(async (trx) => {
        const user = await lockSubUser(trx, session.tenantId, id);
        await revokeTokens(trx, id);
        await trx.deleteFrom('users').where('id', '=', id).execute();
        await logActivity(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          action: 'user.deleted',
          subjectType: 'user',
          subjectId: id,
          detail: { username: user.username, email: user.email },
        });
      });
      return ok(request, { id }, 'users.deleted');
    },
  );
};
