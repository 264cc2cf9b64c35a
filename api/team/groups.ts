import { randomUUID } from 'node:crypto';
import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ApiError, invalid, notFound } from '@api/errors';
import {
  isPermissionKey,
  PERMISSION_AREAS,
  PERMISSION_KEYS,
  type PermissionArea,
  type PermissionKey,
} from '@domain/access/permissions';
import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { IdParams, iso, isUuid, logActivity, TeamCode, violation } from './common';

/**
 * User groups: a name and the permission keys of spec §6 its members hold. Only the owner manages them (a sub-user
 * must not raise their own rights); any seller user may read the key catalogue the console's checklist is drawn from.
 * The session reads a member's group on every request, so a change applies from the member's next request.
 */

export const GROUP_NAME_MAX = 100;

const GroupName = z
  .string({ error: invalid(TeamCode.groupNameRequired, 'groups.name_required') })
  .trim()
  .min(1, invalid(TeamCode.groupNameRequired, 'groups.name_required'))
  .max(GROUP_NAME_MAX, invalid(TeamCode.groupNameTooLong, 'groups.name_too_long', { max: GROUP_NAME_MAX }));

const GroupPermissions = z
  .array(z.string({ error: invalid(TeamCode.permissionsInvalid, 'groups.permissions_invalid') }).max(100), {
    error: invalid(TeamCode.permissionsInvalid, 'groups.permissions_invalid'),
  })
  .max(PERMISSION_KEYS.length * 2, invalid(TeamCode.permissionsInvalid, 'groups.permissions_invalid'))
  .superRefine((keys, ctx) => {
    keys.forEach((key, index) => {
      if (!isPermissionKey(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [index],
          input: key,
          message: invalid(TeamCode.unknownPermission, 'groups.unknown_permission', { key }),
        });
      }
    });
  })
  .transform((keys) => [...new Set(keys)] as PermissionKey[]);

export const GroupBody = z.strictObject({ name: GroupName, permissions: GroupPermissions });
export const GroupChanges = GroupBody.partial().refine(
  (changes) => changes.name !== undefined || changes.permissions !== undefined,
  invalid(TeamCode.nothingToChange, 'groups.nothing_to_change'),
);

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

const conflicts = { 409: ErrorAnswer };

export const groupRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (app, { db }) => {
  const selectGroups = (tenantId: string) =>
    db
      .selectFrom('user_groups as g')
      .select((eb) => [
        'g.id',
        'g.name',
        'g.permissions',
        'g.created_at',
        'g.updated_at',
        eb
          .selectFrom('users as u')
          .select(eb.fn.countAll<string>().as('n'))
          .whereRef('u.group_id', '=', 'g.id')
          .as('member_count'),
      ])
      .where('g.tenant_id', '=', tenantId);

  type GroupRow = Awaited<ReturnType<ReturnType<typeof selectGroups>['executeTakeFirstOrThrow']>>;
  const answer = (row: GroupRow): Group => ({
    id: row.id,
    name: row.name,
    permissions: row.permissions,
    member_count: Number(row.member_count ?? 0),
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  });

  const findGroup = async (tenantId: string, id: string): Promise<Group> => {
    const row = isUuid(id)
      ? await selectGroups(tenantId).where('g.id', '=', id).executeTakeFirst()
      : undefined;
    if (!row) throw notFound();
    return answer(row);
  };

  const nameTaken = (name: string) =>
    new ApiError(409, TeamCode.groupNameTaken, 'groups.name_taken', { name });

  app.get(
    '/api/setting/permission-keys',
    {
      config: { access: 'seller' },
      schema: {
        tags: ['users'],
        summary: 'The permission keys of spec §6 by area, for the group checklist',
        response: { 200: Ok(PermissionCatalogue), ...refusals },
      },
    },
    async (request) =>
      ok(request, {
        areas: (Object.keys(PERMISSION_AREAS) as PermissionArea[]).map((area) => ({
          area,
          keys: [...PERMISSION_AREAS[area]],
        })),
      }),
  );

  app.get(
    '/api/setting/groups',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'All user groups of the seller account, with their member counts',
        response: { 200: Ok(z.array(Group)), ...refusals },
      },
    },
    async (request) => {
      const rows = await selectGroups(seller(request).tenantId)
        .orderBy((eb) => eb.fn('lower', ['g.name']))
        .execute();
      return ok(request, rows.map(answer));
    },
  );

  app.get(
    '/api/setting/groups/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'One user group',
        params: IdParams,
        response: { 200: Ok(Group), ...refusals },
      },
    },
    async (request) => ok(request, await findGroup(seller(request).tenantId, request.params.id)),
  );

  app.post(
    '/api/setting/groups',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'Create a user group',
        body: GroupBody,
        response: { 200: Ok(Group), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { name, permissions } = request.body;
      const id = randomUUID();
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('user_groups')
            .values({ id, tenant_id: session.tenantId, name, permissions })
            .execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: 'group.created',
            subjectType: 'user_group',
            subjectId: id,
            detail: { name, permissions },
          });
        });
      } catch (error) {
        if (violation(error, '23505', 'user_groups_name_idx')) throw nameTaken(name);
        throw error;
      }
      return ok(request, await findGroup(session.tenantId, id), 'groups.created');
    },
  );

  app.put(
    '/api/setting/groups/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'Rename a user group or replace its permissions (members get them on their next request)',
        params: IdParams,
        body: GroupChanges,
        response: { 200: Ok(Group), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { id } = request.params;
      const changes = request.body;
      const before = await findGroup(session.tenantId, id);
      try {
        await db.transaction().execute(async (trx) => {
          await trx
            .updateTable('user_groups')
            .set({ ...changes, updated_at: new Date() })
            .where('id', '=', id)
            .where('tenant_id', '=', session.tenantId)
            .execute();
          await logActivity(trx, {
            tenantId: session.tenantId,
            userId: session.userId,
            action: 'group.updated',
            subjectType: 'user_group',
            subjectId: id,
            detail: {
              ...(changes.name !== undefined ? { name: { from: before.name, to: changes.name } } : {}),
              ...(changes.permissions !== undefined
                ? {
                    granted: changes.permissions.filter((key) => !before.permissions.includes(key)),
                    revoked: before.permissions.filter(
                      (key) => !changes.permissions!.includes(key as PermissionKey),
                    ),
                  }
                : {}),
            },
          });
        });
      } catch (error) {
        if (violation(error, '23505', 'user_groups_name_idx')) throw nameTaken(changes.name ?? before.name);
        throw error;
      }
      return ok(request, await findGroup(session.tenantId, id), 'groups.updated');
    },
  );

  app.delete(
    '/api/setting/groups/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'Delete a user group; refused while users are in it',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound();
      await db.transaction().execute(async (trx) => {
        // The lock makes a concurrent "add a user to this group" wait, then fail on the foreign key.
        const group = await trx
          .selectFrom('user_groups')
          .select(['id', 'name'])
          .where('id', '=', id)
          .where('tenant_id', '=', session.tenantId)
          .forUpdate()
          .executeTakeFirst();
        if (!group) throw notFound();
        const members = await trx
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .where('group_id', '=', id)
          .executeTakeFirstOrThrow();
        if (Number(members.n) > 0) {
          throw new ApiError(409, TeamCode.groupInUse, 'groups.in_use', { count: Number(members.n) });
        }
        await trx.deleteFrom('user_groups').where('id', '=', id).execute();
        await logActivity(trx, {
          tenantId: session.tenantId,
          userId: session.userId,
          action: 'group.deleted',
          subjectType: 'user_group',
          subjectId: id,
          detail: { name: group.name },
        });
      });
      return ok(request, { id }, 'groups.deleted');
    },
  );
};
