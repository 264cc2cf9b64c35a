import { gridQuery, setFilter, TextFilter } from '@api/contracts/grid';
import type { Database } from '@infra/db';
import { allOf, pageWindow, searchWhere, setWhere, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';

/**
 * The users grid (ag-grid Infinite Row Model): the owner and the sub-users of one account, paged, sorted and
 * filtered in SQL. Text filters on username, e-mail and name, a set filter on status, a free-text search.
 */

export const UsersFilterModel = {
  username: TextFilter,
  email: TextFilter,
  name: TextFilter,
  status: setFilter(['active', 'inactive', 'pending']),
};

export const USER_SORT_COLUMNS = ['username', 'email', 'name', 'status', 'group', 'created_at'] as const;
type SortColumn = (typeof USER_SORT_COLUMNS)[number];

export const UsersGridQuery = gridQuery(USER_SORT_COLUMNS, UsersFilterModel);
export type UsersGridQuery = z.infer<typeof UsersGridQuery>;

export const selectTeamUsers = (db: Kysely<Database>, tenantId: string) =>
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
    .where('u.kind', 'in', ['owner', 'subuser']);

export type TeamUserRow = Awaited<ReturnType<ReturnType<typeof selectTeamUsers>['executeTakeFirstOrThrow']>>;

const textColumns = {
  username: sql<string>`coalesce(u.username, '')`,
  email: sql<string>`u.email`,
  name: sql<string>`(u.first_name || ' ' || u.last_name)`,
} as const;

const sortColumns: Record<SortColumn, RawBuilder<unknown>> = {
  username: sql`lower(u.username)`,
  email: sql`lower(u.email)`,
  name: sql`lower(u.first_name || ' ' || u.last_name)`,
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

export async function listUsers(
  db: Kysely<Database>,
  tenantId: string,
  query: UsersGridQuery,
): Promise<{ rows: TeamUserRow[]; lastRow: number }> {
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
  return { rows, lastRow: Number(total.n) };
}
