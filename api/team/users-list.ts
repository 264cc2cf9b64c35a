import { GridQuery } from '@api/answers';
import type { Database } from '@infra/db';
import {
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { z } from 'zod';

/**
 * The users grid (ag-grid Infinite Row Model): the owner and the sub-users of one account, paged, sorted and
 * filtered in SQL. Text filters on username, e-mail and name, a set filter on status, a free-text search.
 */

const TEXT_FILTER_TYPES = [
  'contains',
  'notContains',
  'equals',
  'notEqual',
  'startsWith',
  'endsWith',
  'blank',
  'notBlank',
] as const;

const TextCondition = z.strictObject({
  filterType: z.literal('text').optional(),
  type: z.enum(TEXT_FILTER_TYPES),
  filter: z.string().max(200).nullish(),
});
type TextCondition = z.infer<typeof TextCondition>;

/** One condition, or ag-grid's combined form (`operator` with `conditions`). */
const TextFilter = z.union([
  TextCondition,
  z.strictObject({
    filterType: z.literal('text').optional(),
    operator: z.enum(['AND', 'OR']),
    conditions: z.array(TextCondition).min(1).max(10),
  }),
]);
type TextFilter = z.infer<typeof TextFilter>;

const StatusFilter = z.strictObject({
  filterType: z.literal('set'),
  values: z.array(z.enum(['active', 'inactive', 'pending'])).max(3),
});

export const UsersFilterModel = z
  .strictObject({ username: TextFilter, email: TextFilter, name: TextFilter, status: StatusFilter })
  .partial();

export const USER_SORT_COLUMNS = ['username', 'email', 'name', 'status', 'group', 'created_at'] as const;
type SortColumn = (typeof USER_SORT_COLUMNS)[number];

export const UsersGridQuery = GridQuery.extend({
  sortModel: GridQuery.shape.sortModel.pipe(
    z.array(z.strictObject({ colId: z.enum(USER_SORT_COLUMNS), sort: z.enum(['asc', 'desc']) })),
  ),
  filterModel: GridQuery.shape.filterModel.pipe(UsersFilterModel),
});
export type UsersGridQuery = z.infer<typeof UsersGridQuery>;

/** A page is at most this many rows, whatever endRow - startRow asks. */
export const MAX_USERS_PAGE = 500;

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

type Scope = ExpressionBuilder<Database & { u: Database['users']; g: Database['user_groups'] }, 'u' | 'g'>;

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

/** A LIKE pattern matching `text` literally (backslash is Postgres's default escape). */
const literal = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function textCondition(column: RawBuilder<string>, condition: TextCondition): RawBuilder<SqlBool> {
  const value = condition.filter ?? '';
  switch (condition.type) {
    case 'contains':
      return sql<SqlBool>`${column} ILIKE ${`%${literal(value)}%`}`;
    case 'notContains':
      return sql<SqlBool>`${column} NOT ILIKE ${`%${literal(value)}%`}`;
    case 'equals':
      return sql<SqlBool>`lower(${column}) = lower(${value})`;
    case 'notEqual':
      return sql<SqlBool>`lower(${column}) <> lower(${value})`;
    case 'startsWith':
      return sql<SqlBool>`${column} ILIKE ${`${literal(value)}%`}`;
    case 'endsWith':
      return sql<SqlBool>`${column} ILIKE ${`%${literal(value)}`}`;
    case 'blank':
      return sql<SqlBool>`${column} = ''`;
    case 'notBlank':
      return sql<SqlBool>`${column} <> ''`;
    default: {
      const unknownType: never = condition.type;
      throw new Error(`unknown text filter type ${String(unknownType)}`);
    }
  }
}

function textFilter(eb: Scope, column: RawBuilder<string>, filter: TextFilter): Expression<SqlBool> {
  if ('conditions' in filter) {
    const parts = filter.conditions.map((condition) => textCondition(column, condition));
    return filter.operator === 'AND' ? eb.and(parts) : eb.or(parts);
  }
  return textCondition(column, filter);
}

function conditions(eb: Scope, query: UsersGridQuery): Expression<SqlBool>[] {
  const where: Expression<SqlBool>[] = [];
  const { filterModel } = query;
  for (const column of ['username', 'email', 'name'] as const) {
    const filter = filterModel[column];
    if (filter) where.push(textFilter(eb, textColumns[column], filter));
  }
  if (filterModel.status) {
    where.push(
      filterModel.status.values.length === 0
        ? sql<SqlBool>`false`
        : eb('u.status', 'in', filterModel.status.values),
    );
  }
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${literal(search)}%`;
    where.push(
      eb.or(
        [
          textColumns.username,
          textColumns.email,
          textColumns.name,
          sql<string>`u.phone`,
          sql<string>`coalesce(g.name, '')`,
        ].map((column) => sql<SqlBool>`${column} ILIKE ${pattern}`),
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
  const filtered = selectTeamUsers(db, tenantId).where((eb) => eb.and(conditions(eb, query)));
  let page = filtered;
  for (const { colId, sort } of query.sortModel) {
    page = page.orderBy(sortColumns[colId], (ob) => (sort === 'asc' ? ob.asc() : ob.desc()).nullsLast());
  }
  if (query.sortModel.length === 0) {
    page = page.orderBy(sql`u.kind = 'owner'`, 'desc').orderBy('u.created_at', 'asc');
  }
  const size = Math.max(0, Math.min(query.endRow - query.startRow, MAX_USERS_PAGE));
  const [rows, total] = await Promise.all([
    page.orderBy('u.id', 'asc').limit(size).offset(query.startRow).execute(),
    filtered
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, lastRow: Number(total.n) };
}
