import { randomUUID } from 'node:crypto';
import type { Group, GroupBody, GroupChanges } from '@api/contracts/team';
import type { PermissionKey } from '@domain/access/permissions';
import { refuseTeam } from '@domain/access/team';
import { isUuid } from '@domain/platform/ids';
import { violation } from '@infra/db/errors';
import { findGroup } from '@projections/team/groups';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import type { TeamDeps } from './users';

/**
 * User groups: a name and the permission keys of spec §6 its members hold. The session reads a member's group on
 * every request, so a change applies from the member's next request. A name is unique in the account.
 */

const nameTaken = (error: unknown, name: string) =>
  violation(error, '23505', 'user_groups_name_idx') ? refuseTeam('GROUP_NAME_TAKEN', { name }) : error;

async function answer({ db }: TeamDeps, tenantId: string, id: string): Promise<Group> {
  const group = await findGroup(db, tenantId, id);
  if (!group) throw refuseTeam('NOT_FOUND');
  return group;
}

export async function createGroup(deps: TeamDeps, actor: Actor, input: GroupBody): Promise<Group> {
  const { name, permissions } = input;
  const id = randomUUID();
  try {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('user_groups')
        .values({ id, tenant_id: actor.tenantId, name, permissions })
        .execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
        action: 'group.created',
        subjectType: 'user_group',
        subjectId: id,
        detail: { name, permissions },
      });
    });
  } catch (error) {
    throw nameTaken(error, name);
  }
  return answer(deps, actor.tenantId, id);
}

/** A group renamed or its permissions replaced (members get them on their next request). */
export async function updateGroup(
  deps: TeamDeps,
  actor: Actor,
  input: { id: string; changes: GroupChanges },
): Promise<Group> {
  const { id, changes } = input;
  const before = await answer(deps, actor.tenantId, id);
  try {
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('user_groups')
        .set({ ...changes, updated_at: new Date() })
        .where('id', '=', id)
        .where('tenant_id', '=', actor.tenantId)
        .execute();
      await logActivity(trx, {
        tenantId: actor.tenantId,
        userId: actor.userId,
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
    throw nameTaken(error, changes.name ?? before.name);
  }
  return answer(deps, actor.tenantId, id);
}

/** A group deleted; refused while users are in it. */
export async function deleteGroup(
  deps: TeamDeps,
  actor: Actor,
  input: { id: string },
): Promise<{ id: string }> {
  const { id } = input;
  if (!isUuid(id)) throw refuseTeam('NOT_FOUND');
  await deps.db.transaction().execute(async (trx) => {
    // The lock makes a concurrent "add a user to this group" wait, then fail on the foreign key.
    const group = await trx
      .selectFrom('user_groups')
      .select(['id', 'name'])
      .where('id', '=', id)
      .where('tenant_id', '=', actor.tenantId)
      .forUpdate()
      .executeTakeFirst();
    if (!group) throw refuseTeam('NOT_FOUND');
    const members = await trx
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('group_id', '=', id)
      .executeTakeFirstOrThrow();
    if (Number(members.n) > 0) throw refuseTeam('GROUP_IN_USE', { count: Number(members.n) });
    await trx.deleteFrom('user_groups').where('id', '=', id).execute();
    await logActivity(trx, {
      tenantId: actor.tenantId,
      userId: actor.userId,
      action: 'group.deleted',
      subjectType: 'user_group',
      subjectId: id,
      detail: { name: group.name },
    });
  });
  return { id };
}
