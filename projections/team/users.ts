import type { TeamUser, UserSortColumn, UsersGridQuery } from '@api/contracts/team';
import { ACCOUNT_USER_KINDS } from '@domain/access/kinds';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * The account's users as Settings → users shows them: the owner, the sub-users with their group and the partners
 * (suppliers, dealers…) of one account,
 * paged, sorted and filtered in SQL for ag-grid's Infinite Row Model.
 */

const selectTeamUsers = (db: Kysely<Database>, tenantId: string) =>
  db
    .selectFrom('users as u')
    .leftJoin('user_groups as g', 'g.id', 'u.group_id')
    .select([
      'u.id',
      'u.kind',
      'u.username',
      'u.email',
      'u.first_name',
      'u.last_name',
      'u.phone',
      'u.status',
      'u.last_sign_in_at',
      'u.created_at',
      'u.updated_at',
      'g.id as group_id',
      'g.name as group_name',
    ])
    .where('u.tenant_id', '=', tenantId)
    .where('u.kind', 'in', ACCOUNT_USER_KINDS);

type TeamUserRow = Awaited<ReturnType<ReturnType<typeof selectTeamUsers>['executeTakeFirstOrThrow']>>;

const iso = (value: Date | null) => (value ? value.toISOString() : null);

function teamUser(row: TeamUserRow): TeamUser {
  return {
    id: row.id,
    kind: row.kind as TeamUser['kind'],
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    status: row.status,
    group: row.group_id && row.group_name ? { id: row.group_id, name: row.group_name } : null,
    editable: row.kind !== 'owner',
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** One user of the account (the owner or a sub-user), or undefined. */
export async function findTeamUser(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
): Promise<TeamUser | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await selectTeamUsers(db, tenantId).where('u.id', '=', id).executeTakeFirst();
  return row ? teamUser(row) : undefined;
}

const textColumns = {
  username: sql<string>`coalesce(u.username, '')`,
  email: sql<string>`u.email`,
  name: sql<string>`(u.first_name || ' ' || u.last_name)`,
} as const;

const sortColumns: Record<UserSortColumn, RawBuilder<unknown>> = {
  username: sql`lower(u.username)`,
  email: sql`lower(u.email)`,
  name: sql`lower(u.first_name || ' ' || u.last_name)`,
  kind: sql`u.kind`,
  status: sql`u.status`,
  group: sql`lower(g.name)`,
  created_at: sql`u.created_at`,
};

function conditions(query: UsersGridQuery): RawBuilder<SqlBool>[] {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  for (const column of ['username', 'email', 'name'] as const) {
    const filter = filterModel[column];
    if (filter) where.push(textWhere(textColumns[column], filter));
  }
  if (filterModel.status) where.push(setWhere(sql<string>`u.status`, filterModel.status.values));
  if (filterModel.kind) where.push(setWhere(sql<string>`u.kind`, filterModel.kind.values));
  const search = query.search?.trim();
  if (search) {
    where.push(
      searchWhere(
        [
          textColumns.username,
          textColumns.email,
          textColumns.name,
          sql<string>`u.phone`,
          sql<string>`coalesce(g.name, '')`,
        ],
        search,
      ),
    );
  }
  return where;
}

/** A page of the users grid; the owner first when no sort is asked for. */
export async function listTeamUsers(
  db: Kysely<Database>,
  tenantId: string,
  query: UsersGridQuery,
): Promise<{ rows: TeamUser[]; lastRow: number }> {
  const filtered = selectTeamUsers(db, tenantId).where(allOf(conditions(query)));
  const order = [
    ...sortTerms(query.sortModel, sortColumns),
    ...(query.sortModel.length === 0 ? [sql`u.kind = 'owner' DESC`, sql`u.created_at ASC`] : []),
    sql`u.id ASC`,
  ];
  const { limit, offset } = pageWindow(query);
  const [rows, total] = await Promise.all([
    filtered.orderBy(sql.join(order)).limit(limit).offset(offset).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(teamUser), lastRow: Number(total.n) };
}
