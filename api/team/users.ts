import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { DeletedRecord, NewSubUser, SubUserChanges, TeamUser, UsersGridQuery } from '@api/contracts/team';
import { notFound } from '@api/errors';
import { createSubUser, deleteSubUser, updateSubUser } from '@commands/team/users';
import type { Db } from '@infra/db';
import { findTeamUser, listTeamUsers } from '@projections/team/users';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Settings → users: the owner's sub-users (commands/team/users.ts holds the rules). */

const conflicts = { 409: ErrorAnswer };

export const userRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
    async (request) => ok(request, await listTeamUsers(db, seller(request).tenantId, request.query)),
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
    async (request) => {
      const user = await findTeamUser(db, seller(request).tenantId, request.params.id);
      if (!user) throw notFound();
      return ok(request, user);
    },
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
    async (request) =>
      ok(request, await createSubUser({ db }, seller(request), request.body), 'users.created'),
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
    async (request) =>
      ok(
        request,
        await updateSubUser({ db }, seller(request), { id: request.params.id, changes: request.body }),
        'users.updated',
      ),
  );

  app.delete(
    '/api/setting/users/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'Delete a sub-user; their tokens stop working at once',
        params: IdParams,
        response: { 200: Ok(DeletedRecord), ...refusals },
      },
    },
    async (request) =>
      ok(request, await deleteSubUser({ db }, seller(request), request.params), 'users.deleted'),
  );
};
