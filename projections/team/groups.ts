import type { Group, PermissionCatalogue } from '@api/contracts/team';
import { PERMISSION_AREAS, type PermissionArea } from '@domain/access/permissions';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/** The account's user groups with their member counts (Settings → user groups). */

const selectGroups = (db: Kysely<Database>, tenantId: string) =>
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

const group = (row: GroupRow): Group => ({
  id: row.id,
  name: row.name,
  permissions: row.permissions,
  member_count: Number(row.member_count ?? 0),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Every group of the account, by name. */
export async function listGroups(db: Kysely<Database>, tenantId: string): Promise<Group[]> {
  const rows = await selectGroups(db, tenantId)
    .orderBy((eb) => eb.fn('lower', ['g.name']))
    .execute();
  return rows.map(group);
}

/** One group of the account, or undefined. */
export async function findGroup(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
): Promise<Group | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectGroups(db, tenantId).where('g.id', '=', id).executeTakeFirst();
  return row ? group(row) : undefined;
}

/** The permission keys of spec §6 by area, for the group checklist. */
export const permissionCatalogue: PermissionCatalogue = {
  areas: (Object.keys(PERMISSION_AREAS) as PermissionArea[]).map((area) => ({
    area,
    keys: [...PERMISSION_AREAS[area]],
  })),
};
