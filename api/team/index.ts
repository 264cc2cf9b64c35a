import { ErrorAnswer, GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  DeletedRecord,
  Group,
  GroupBody,
  GroupChanges,
  NewSubUser,
  PermissionCatalogue,
  SubUserChanges,
  TeamUser,
  UsersGridQuery,
} from '@api/contracts/team';
import { found } from '@api/errors';
import { router } from '@api/route';
import { createGroup, deleteGroup, updateGroup } from '@commands/team/groups';
import { createSubUser, deleteSubUser, updateSubUser } from '@commands/team/users';
import type { Db } from '@infra/db';
import { findGroup, listGroups, permissionCatalogue } from '@projections/team/groups';
import { findTeamUser, listTeamUsers } from '@projections/team/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Settings → user groups and users (commands/team): only the owner manages them (a sub-user must not raise their own
 * rights); any seller user may read the key catalogue the console's checklist is drawn from.
 */

const conflict = { 409: ErrorAnswer };
const one = { params: IdParams } as const;

export const teamRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Sub-users and their groups are the package's user-level module (spec §6 package flags).
  const route = router(app, { tags: ['users'], access: 'owner', module: 'userLevelModule' });

  route.get(
    '/api/setting/permission-keys',
    {
      summary: 'The permission keys of spec §6 by area, for the group checklist',
      access: 'seller',
      answer: PermissionCatalogue,
    },
    async (request) => ok(request, permissionCatalogue),
  );

  // ---- user groups ----

  route.get(
    '/api/setting/groups',
    { summary: 'All user groups of the seller account, with their member counts', answer: z.array(Group) },
    async (request) => ok(request, await listGroups(db, seller(request).tenantId)),
  );

  route.get(
    '/api/setting/groups/:id',
    { ...one, summary: 'One user group', answer: Group },
    async (request) => ok(request, found(await findGroup(db, seller(request).tenantId, request.params.id))),
  );

  route.post(
    '/api/setting/groups',
    { summary: 'Create a user group', body: GroupBody, answer: Group, errors: conflict },
    async (request) =>
      ok(request, await createGroup({ db }, seller(request), request.body), 'groups.created'),
  );

  route.put(
    '/api/setting/groups/:id',
    {
      ...one,
      summary: 'Rename a user group or replace its permissions (members get them on their next request)',
      body: GroupChanges,
      answer: Group,
      errors: conflict,
    },
    async (request) => {
      const input = { id: request.params.id, changes: request.body };
      return ok(request, await updateGroup({ db }, seller(request), input), 'groups.updated');
    },
  );

  route.delete(
    '/api/setting/groups/:id',
    {
      ...one,
      summary: 'Delete a user group; refused while users are in it',
      answer: DeletedRecord,
      errors: conflict,
    },
    async (request) =>
      ok(request, await deleteGroup({ db }, seller(request), request.params), 'groups.deleted'),
  );

  // ---- users ----

  route.get(
    '/api/setting/users',
    {
      summary: "The account's users for ag-grid's Infinite Row Model (the owner is listed, not editable)",
      query: UsersGridQuery,
      answer: GridPage(TeamUser),
    },
    async (request) => ok(request, await listTeamUsers(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/setting/users/:id',
    { ...one, summary: 'One user of the account', answer: TeamUser },
    async (request) =>
      ok(request, found(await findTeamUser(db, seller(request).tenantId, request.params.id))),
  );

  route.post(
    '/api/setting/users',
    {
      summary: "Create a sub-user, within the package's sub-user limit (403, code 430, past it)",
      body: NewSubUser,
      answer: TeamUser,
      errors: conflict,
    },
    async (request) =>
      ok(request, await createSubUser({ db }, seller(request), request.body), 'users.created'),
  );

  route.put(
    '/api/setting/users/:id',
    {
      ...one,
      summary: "Edit a sub-user's details, group, status or password (deactivation revokes their tokens)",
      body: SubUserChanges,
      answer: TeamUser,
      errors: conflict,
    },
    async (request) => {
      const input = { id: request.params.id, changes: request.body };
      return ok(request, await updateSubUser({ db }, seller(request), input), 'users.updated');
    },
  );

  route.delete(
    '/api/setting/users/:id',
    { ...one, summary: 'Delete a sub-user; their tokens stop working at once', answer: DeletedRecord },
    async (request) =>
      ok(request, await deleteSubUser({ db }, seller(request), request.params), 'users.deleted'),
  );
};
