import type { AdminAnnouncement, Announcement, SellerAnnouncement } from '@api/contracts/announcements';
import type { GridQuery } from '@api/contracts/common';
import {
  type AnnouncementCountry,
  FINAL_ACK_STATUSES,
  refuseAnnouncement,
} from '@domain/platform/announcements';
import { isUuid } from '@domain/platform/ids';
import type { AnnouncementsTable, Database } from '@infra/db';
import { type ExpressionBuilder, type Kysely, type Nullable, type Selectable, sql } from 'kysely';
import { z } from 'zod';

/**
 * Reads of the announcements: the admins' grid (ag-grid Infinite Row Model, sorted and filtered in SQL) with the
 * answers counted, and what a seller's user sees now, with their own answer.
 */

export type AnnouncementRow = Selectable<AnnouncementsTable>;

export function toAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    subject: row.subject,
    content: row.content,
    start_at: row.start_at.toISOString(),
    end_at: row.end_at.toISOString(),
    priority: row.priority,
    is_active: row.is_active,
    requires_ack: row.requires_ack,
    country: row.country as AnnouncementCountry | null,
    prompt: row.prompt,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export async function findAnnouncement(
  db: Kysely<Database>,
  id: string,
): Promise<AnnouncementRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
}

// ---- the admins' grid: its sort columns and filters, checked when the query runs ----

const ANNOUNCEMENT_SORT_COLUMNS = [
  'subject',
  'priority',
  'start_at',
  'end_at',
  'is_active',
  'requires_ack',
  'country',
  'prompt',
  'created_at',
  'updated_at',
] as const;
type AnnouncementSortColumn = (typeof ANNOUNCEMENT_SORT_COLUMNS)[number];

const AnnouncementTextFilter = z.strictObject({
  filterType: z.literal('text'),
  type: z.enum(['contains', 'notContains', 'equals', 'notEqual', 'startsWith', 'endsWith']),
  filter: z.string().max(200),
});
const AnnouncementNumberFilter = z.strictObject({
  filterType: z.literal('number'),
  type: z.enum(['equals', 'notEqual', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual']),
  filter: z.number(),
});

const isSortable = (column: string): column is AnnouncementSortColumn =>
  (ANNOUNCEMENT_SORT_COLUMNS as readonly string[]).includes(column);
const FILTERS = {
  subject: AnnouncementTextFilter,
  content: AnnouncementTextFilter,
  country: AnnouncementTextFilter,
} as const;

const likePattern = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const badQuery = () => refuseAnnouncement('BAD_QUERY', { where: 'querystring' });

type AnnouncementEb = ExpressionBuilder<Database, 'announcements'>;

function filterExpression(eb: AnnouncementEb, column: string, model: unknown) {
  if (column === 'priority') {
    const parsed = AnnouncementNumberFilter.safeParse(model);
    if (!parsed.success) throw badQuery();
    const op = {
      equals: '=',
      notEqual: '<>',
      greaterThan: '>',
      greaterThanOrEqual: '>=',
      lessThan: '<',
      lessThanOrEqual: '<=',
    } as const;
    return eb('priority', op[parsed.data.type], parsed.data.filter);
  }
  if (column !== 'subject' && column !== 'content' && column !== 'country') throw badQuery();
  const parsed = FILTERS[column].safeParse(model);
  if (!parsed.success) throw badQuery();
  const text = likePattern(parsed.data.filter);
  switch (parsed.data.type) {
    case 'contains':
      return eb(column, 'ilike', `%${text}%`);
    case 'notContains':
      return eb.not(eb(column, 'ilike', `%${text}%`));
    case 'equals':
      return eb(column, 'ilike', text);
    case 'notEqual':
      return eb.not(eb(column, 'ilike', text));
    case 'startsWith':
      return eb(column, 'ilike', `${text}%`);
    case 'endsWith':
      return eb(column, 'ilike', `%${text}`);
    default: {
      const unreachable: never = parsed.data.type;
      throw new Error(`unknown text filter ${String(unreachable)}`);
    }
  }
}

function gridWhere(query: GridQuery) {
  return (eb: AnnouncementEb) => {
    const conditions = Object.entries(query.filterModel).map(([column, model]) =>
      filterExpression(eb, column, model),
    );
    // The admins' grid lists their own announcements, not the notices Kedai sends one account.
    conditions.push(eb('tenant_id', 'is', null));
    const search = query.search?.trim();
    if (search) {
      const pattern = `%${likePattern(search)}%`;
      conditions.push(eb.or([eb('subject', 'ilike', pattern), eb('content', 'ilike', pattern)]));
    }
    return eb.and(conditions);
  };
}

/** A page of the admins' grid, each announcement with its answers counted. */
export async function listAdminAnnouncements(
  db: Kysely<Database>,
  query: GridQuery,
): Promise<{ rows: AdminAnnouncement[]; lastRow: number }> {
  const where = gridWhere(query);
  let rows = db
    .selectFrom('announcements')
    .selectAll()
    .select((eb) =>
      ([100, 110, 120] as const).map((status) =>
        eb
          .selectFrom('announcement_acks as k')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('k.announcement_id', '=', 'announcements.id')
          .where('k.status', '=', status)
          .as(`acks_${status}`),
      ),
    )
    .where(where);
  for (const { colId, sort } of query.sortModel) {
    if (!isSortable(colId)) throw badQuery();
    rows = rows.orderBy(colId, sort);
  }
  rows = rows.orderBy('priority', 'desc').orderBy('start_at', 'desc').orderBy('id');
  const limit = Math.max(0, query.endRow - query.startRow);
  const [page, total] = await Promise.all([
    rows.offset(query.startRow).limit(limit).execute(),
    db
      .selectFrom('announcements')
      .select(sql<number>`count(*)::int`.as('n'))
      .where(where)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    rows: page.map((row) => ({
      ...toAnnouncement(row),
      acks: { acknowledged: row.acks_100 ?? 0, rejected: row.acks_110 ?? 0, read: row.acks_120 ?? 0 },
    })),
    lastRow: total.n,
  };
}

// ---- what a seller's user sees ----

export interface Viewer {
  tenantId: string;
  userId: string;
}

type Aliased = Database & {
  a: Database['announcements'];
  k: Nullable<Database['announcement_acks']>;
};
type Eb = ExpressionBuilder<Aliased, 'a' | 'k'>;

/** Meant for this account: every country, or the account's own; to every account, or to this one alone. */
const targets = (eb: Eb, country: string, tenantId: string) =>
  eb.and([
    eb.or([eb('a.country', 'is', null), eb('a.country', '=', country)]),
    eb.or([eb('a.tenant_id', 'is', null), eb('a.tenant_id', '=', tenantId)]),
  ]);

/** Shown now: active and within its dates. */
const shownAt = (eb: Eb, now: Date) =>
  eb.and([eb('a.is_active', '=', true), eb('a.start_at', '<=', now), eb('a.end_at', '>', now)]);

function toSellerAnnouncement(
  row: AnnouncementRow & { ack_status: number | null; ack_dont_show_again: boolean | null },
): SellerAnnouncement {
  return {
    ...toAnnouncement(row),
    ack_status: (row.ack_status as SellerAnnouncement['ack_status']) ?? null,
    dont_show_again: row.ack_dont_show_again ?? false,
  };
}

export async function accountCountry(db: Kysely<Database>, tenantId: string): Promise<string> {
  const tenant = await db
    .selectFrom('tenants')
    .select('country')
    .where('id', '=', tenantId)
    .executeTakeFirstOrThrow();
  return tenant.country;
}

/** The announcements with this user's answer joined. */
const withAnswers = (db: Kysely<Database>, viewer: Viewer) =>
  db
    .selectFrom('announcements as a')
    .leftJoin('announcement_acks as k', (join) =>
      join.onRef('k.announcement_id', '=', 'a.id').on('k.user_id', '=', viewer.userId),
    )
    .selectAll('a')
    .select(['k.status as ack_status', 'k.dont_show_again as ack_dont_show_again']);

/** The announcements shown to the user now, highest priority first. */
export async function shownAnnouncements(
  db: Kysely<Database>,
  viewer: Viewer,
): Promise<SellerAnnouncement[]> {
  const country = await accountCountry(db, viewer.tenantId);
  const now = new Date();
  const rows = await withAnswers(db, viewer)
    .where((eb) => eb.and([shownAt(eb, now), targets(eb, country, viewer.tenantId)]))
    .orderBy('a.priority', 'desc')
    .orderBy('a.start_at', 'desc')
    .orderBy('a.id')
    .execute();
  return rows.map(toSellerAnnouncement);
}

/** The announcements to prompt at sign-in: not yet answered for good nor set aside. */
export async function promptedAnnouncements(
  db: Kysely<Database>,
  viewer: Viewer,
): Promise<SellerAnnouncement[]> {
  const country = await accountCountry(db, viewer.tenantId);
  const now = new Date();
  const rows = await withAnswers(db, viewer)
    .where((eb) =>
      eb.and([
        shownAt(eb, now),
        targets(eb, country, viewer.tenantId),
        eb('a.prompt', '=', true),
        eb.or([
          eb('k.status', 'is', null),
          eb.and([eb('k.status', 'not in', [...FINAL_ACK_STATUSES]), eb('k.dont_show_again', '=', false)]),
        ]),
      ]),
    )
    .orderBy('a.priority', 'desc')
    .orderBy('a.start_at', 'desc')
    .orderBy('a.id')
    .execute();
  return rows.map(toSellerAnnouncement);
}

/** One announcement shown to the user now, or undefined. */
export async function shownAnnouncement(
  db: Kysely<Database>,
  viewer: Viewer,
  id: string,
): Promise<SellerAnnouncement | undefined> {
  if (!isUuid(id)) return undefined;
  const country = await accountCountry(db, viewer.tenantId);
  const now = new Date();
  const row = await withAnswers(db, viewer)
    .where('a.id', '=', id)
    .where((eb) => eb.and([shownAt(eb, now), targets(eb, country, viewer.tenantId)]))
    .executeTakeFirst();
  return row ? toSellerAnnouncement(row) : undefined;
}

/** One announcement as the admins see it, or undefined. */
export async function announcementById(db: Kysely<Database>, id: string): Promise<Announcement | undefined> {
  const row = await findAnnouncement(db, id);
  return row && toAnnouncement(row);
}
