import type { ActivityEntry, ActivityLogQuery, SignInEntry, SignInLogQuery } from '@api/contracts/activity';
import type { Database } from '@infra/db';
import { allOf, dateWhere, pageWindow, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';

/**
 * The account's activity log and sign-ins as their grids read them: newest first unless a sort is asked, filtered in
 * SQL, each row with the user who acted (null once that user is deleted).
 */

const userName = sql<string>`coalesce(u.first_name || ' ' || u.last_name, '')`;
const userText = sql<string>`coalesce(u.first_name || ' ' || u.last_name || ' ' || u.email, '')`;

const actingUser = (row: { user_id: string | null; name: string; email: string | null }) =>
  row.user_id && row.email !== null ? { id: row.user_id, name: row.name.trim(), email: row.email } : null;

async function page<Row>(
  rows: Promise<Row[]>,
  total: Promise<{ n: string }>,
): Promise<{ rows: Row[]; lastRow: number }> {
  const [found, count] = await Promise.all([rows, total]);
  return { rows: found, lastRow: Number(count.n) };
}

export async function listActivity(
  db: Kysely<Database>,
  tenantId: string,
  query: ActivityLogQuery,
): Promise<{ rows: ActivityEntry[]; lastRow: number }> {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  if (filterModel.user) where.push(textWhere(userText, filterModel.user));
  if (filterModel.action) where.push(textWhere(sql<string>`a.action`, filterModel.action));
  if (filterModel.at) where.push(dateWhere(sql<Date>`a.at`, filterModel.at));
  const filtered = db
    .selectFrom('activity_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .where('a.tenant_id', '=', tenantId)
    .where(allOf(where));
  const order = [
    ...sortTerms(query.sortModel, { at: sql`a.at`, action: sql`a.action`, user: sql`lower(${userName})` }),
    sql`a.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  const result = await page(
    filtered
      .select([
        'a.id',
        'a.at',
        'a.user_id',
        'a.action',
        'a.subject_type',
        'a.subject_id',
        'a.detail',
        'u.email',
        userName.as('name'),
      ])
      .orderBy(sql.join(order))
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  );
  return {
    lastRow: result.lastRow,
    rows: result.rows.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      user: actingUser(row),
      action: row.action,
      subject_type: row.subject_type,
      subject_id: row.subject_id,
      detail: (row.detail ?? {}) as Record<string, unknown>,
    })),
  };
}

export async function listSignIns(
  db: Kysely<Database>,
  tenantId: string,
  query: SignInLogQuery,
): Promise<{ rows: SignInEntry[]; lastRow: number }> {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  if (filterModel.user) where.push(textWhere(userText, filterModel.user));
  if (filterModel.address) where.push(textWhere(sql<string>`s.address`, filterModel.address));
  if (query.result) where.push(sql<SqlBool>`s.result = ${query.result}`);
  if (filterModel.at) where.push(dateWhere(sql<Date>`s.at`, filterModel.at));
  const filtered = db
    .selectFrom('sign_in_log as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .where('s.tenant_id', '=', tenantId)
    .where(allOf(where));
  const order = [
    ...sortTerms(query.sortModel, {
      at: sql`s.at`,
      user: sql`lower(${userName})`,
      address: sql`s.address`,
      result: sql`s.result`,
    }),
    sql`s.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  const result = await page(
    filtered
      .select([
        's.id',
        's.at',
        's.user_id',
        's.login',
        's.address',
        's.user_agent',
        's.result',
        'u.email',
        userName.as('name'),
      ])
      .orderBy(sql.join(order))
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  );
  return {
    lastRow: result.lastRow,
    rows: result.rows.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      user: actingUser(row),
      login: row.login,
      address: row.address,
      user_agent: row.user_agent,
      result: row.result,
    })),
  };
}
