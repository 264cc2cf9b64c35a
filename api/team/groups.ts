import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { DeletedRecord, Group, GroupBody, GroupChanges, PermissionCatalogue } from '@api/contracts/team';
import { notFound } from '@api/errors';
import { createGroup, deleteGroup, updateGroup } from '@commands/team/groups';
import { PERMISSION_AREAS, type PermissionArea } from '@domain/access/permissions';
import type { Db } from '@infra/db';
import { findGroup, listGroups } from '@projections/team/groups';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * User groups: only the owner manages them (a sub-user must not raise their own rights); any seller user may read
 * the key catalogue the console's checklist is drawn from. The rules are in commands/team/groups.ts.
 */

const conflicts = { 409: ErrorAnswer };

const permissionCatalogue: PermissionCatalogue = {
  areas: (Object.keys(PERMISSION_AREAS) as PermissionArea[]).map((area) => ({
    area,
    keys: [...PERMISSION_AREAS[area]],
  })),
};

export const groupRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
    async (request) => ok(request, permissionCatalogue),
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
    async (request) => ok(request, await listGroups(db, seller(request).tenantId)),
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
    async (request) => {
      const group = await findGroup(db, seller(request).tenantId, request.params.id);
      if (!group) throw notFound();
      return ok(request, group);
    },
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
    async (request) =>
      ok(request, await createGroup({ db }, seller(request), request.body), 'groups.created'),
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
    async (request) =>
      ok(
        request,
        await updateGroup({ db }, seller(request), { id: request.params.id, changes: request.body }),
        'groups.updated',
      ),
  );

  app.delete(
    '/api/setting/groups/:id',
    {
      config: { access: 'owner' },
      schema: {
        tags: ['users'],
        summary: 'Delete a user group; refused while users are in it',
        params: IdParams,
        response: { 200: Ok(DeletedRecord), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(request, await deleteGroup({ db }, seller(request), request.params), 'groups.deleted'),
  );
};
