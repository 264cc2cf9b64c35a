import { randomUUID } from 'node:crypto';
import { logActivity as logSharedActivity } from '@api/activity';
import type { Database } from '@infra/db';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely';
import { z } from 'zod';
import { GridPage, GridQuery, Ok, ok, refusals } from '../answers';
import { signedIn } from '../auth/session';
import { ApiError, invalid, notFound } from '../errors';
import {
  ANNOUNCEMENT_COUNTRIES,
  Announcement,
  type AnnouncementRow,
  CONTENT_MAX_LENGTH,
  isUuid,
  PRIORITY_MAX,
  TITLE_MAX_LENGTH,
  toAnnouncement,
} from './shape';

/**
 * The provider's admins write announcements (spec §3–5): list, read, add, update, delete, answering with the codes of
 * spec §8 — add 0/400/410, update 0/400/401/402/410, delete 0/401/402. Every change leaves an activity-log row.
 */

// ---- the request bodies: each field required, each refusal with the catalogue's code and message ----

type Field =
  | 'subject'
  | 'content'
  | 'start_at'
  | 'end_at'
  | 'is_active'
  | 'requires_ack'
  | 'country'
  | 'prompt';

/** "Missing announcement {field}" when absent or null, "Invalid announcement {field}" when of the wrong type or form. */
const fieldError =
  (field: Field) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null
      ? invalid(400, `announcement.missing.${field}`)
      : invalid(400, `announcement.invalid.${field}`);

const priorityMissing = (input: unknown) => input === undefined || input === null || input === '';
const priorityInvalid = invalid(400, 'announcement.invalid.priority', { max: PRIORITY_MAX });

// Priority comes first: when it is missing, "Please provide priority" is the message (spec §5).
const AnnouncementFields = {
  priority: z
    .number({
      error: (issue) =>
        priorityMissing(issue.input) ? invalid(400, 'announcement.provide_priority') : priorityInvalid,
    })
    .int(priorityInvalid)
    .min(0, priorityInvalid)
    .max(PRIORITY_MAX, priorityInvalid),
  subject: z
    .string({ error: fieldError('subject') })
    .trim()
    .min(1, invalid(400, 'announcement.missing.subject'))
    .max(TITLE_MAX_LENGTH, invalid(400, 'announcement.title_too_long', { max: TITLE_MAX_LENGTH })),
  content: z
    .string({ error: fieldError('content') })
    .trim()
    .min(1, invalid(400, 'announcement.missing.content'))
    .max(CONTENT_MAX_LENGTH, invalid(400, 'announcement.content_too_long', { max: CONTENT_MAX_LENGTH })),
  start_at: z.iso.datetime({ offset: true, error: fieldError('start_at') }),
  end_at: z.iso.datetime({ offset: true, error: fieldError('end_at') }),
  is_active: z.boolean({ error: fieldError('is_active') }),
  requires_ack: z.boolean({ error: fieldError('requires_ack') }),
  country: z.enum(ANNOUNCEMENT_COUNTRIES, { error: fieldError('country') }).nullable(),
  prompt: z.boolean({ error: fieldError('prompt') }),
};

const endAfterStart = {
  check: (body: { start_at: string; end_at: string }) => Date.parse(body.end_at) > Date.parse(body.start_at),
  params: { error: invalid(400, 'announcement.end_before_start'), path: ['end_at'] },
};

const missingId = invalid(401, 'announcement.missing_id');
const invalidId = invalid(402, 'announcement.admin_invalid_id');

/** The id of update and delete: absent or blank is 401 "Missing ID"; not a string, 402 "Invalid ID". */
const AnnouncementId = z
  .string({ error: (issue) => (issue.input === undefined || issue.input === null ? missingId : invalidId) })
  .trim()
  .min(1, missingId)
  .max(64, invalidId);

/** With no body at all, the id is what is missing first. */
const noBodyIsMissingId = {
  error: (issue: { code?: string; input?: unknown }) =>
    issue.code === 'invalid_type' && issue.input == null ? missingId : undefined,
};

export const AddAnnouncement = z
  .strictObject(AnnouncementFields)
  .refine(endAfterStart.check, endAfterStart.params);
export type AddAnnouncement = z.infer<typeof AddAnnouncement>;

export const UpdateAnnouncement = z
  .strictObject({ id: AnnouncementId, ...AnnouncementFields }, noBodyIsMissingId)
  .refine(endAfterStart.check, endAfterStart.params);
export type UpdateAnnouncement = z.infer<typeof UpdateAnnouncement>;

export const DeleteAnnouncement = z.strictObject({ id: AnnouncementId }, noBodyIsMissingId);

export const AdminAnnouncement = Announcement.extend({
  acks: z.object({
    acknowledged: z.number().int(),
    rejected: z.number().int(),
    read: z.number().int(),
  }),
});
export type AdminAnnouncement = z.infer<typeof AdminAnnouncement>;

// ---- the grid: ag-grid's Infinite Row Model, sorted and filtered in SQL ----

const SORTABLE = [
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
type Sortable = (typeof SORTABLE)[number];
const isSortable = (column: string): column is Sortable => (SORTABLE as readonly string[]).includes(column);

const TextFilter = z.strictObject({
  filterType: z.literal('text'),
  type: z.enum(['contains', 'notContains', 'equals', 'notEqual', 'startsWith', 'endsWith']),
  filter: z.string().max(200),
});
const NumberFilter = z.strictObject({
  filterType: z.literal('number'),
  type: z.enum(['equals', 'notEqual', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual']),
  filter: z.number(),
});
const FILTERS = {
  subject: TextFilter,
  content: TextFilter,
  country: TextFilter,
  priority: NumberFilter,
} as const;

const likePattern = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
const badQuery = () => new ApiError(400, 400, 'common.invalid_input', { where: 'querystring' });

type AnnouncementEb = ExpressionBuilder<Database, 'announcements'>;

function filterExpression(eb: AnnouncementEb, column: string, model: unknown) {
  if (column === 'priority') {
    const parsed = NumberFilter.safeParse(model);
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
    const search = query.search?.trim();
    if (search) {
      const pattern = `%${likePattern(search)}%`;
      conditions.push(eb.or([eb('subject', 'ilike', pattern), eb('content', 'ilike', pattern)]));
    }
    return eb.and(conditions);
  };
}

// ---- the activity log ----

function logActivity(
  db: Kysely<Database> | Transaction<Database>,
  entry: { userId: string; action: string; subjectId: string; detail: Record<string, unknown> },
) {
  // Announcements are the provider's, not a tenant's.
  return logSharedActivity(db, { tenantId: null, subjectType: 'announcement', ...entry });
}

function rowValues(body: AddAnnouncement) {
  return {
    subject: body.subject,
    content: body.content,
    start_at: new Date(body.start_at),
    end_at: new Date(body.end_at),
    priority: body.priority,
    is_active: body.is_active,
    requires_ack: body.requires_ack,
    country: body.country,
    prompt: body.prompt,
  };
}

/** The fields an update changed, as `{ field: { from, to } }`, for the activity log. */
function changes(before: AnnouncementRow, after: ReturnType<typeof rowValues>) {
  const changed: Record<string, { from: unknown; to: unknown }> = {};
  for (const [field, value] of Object.entries(after)) {
    const old = before[field as keyof typeof after];
    const same =
      value instanceof Date && old instanceof Date ? value.getTime() === old.getTime() : value === old;
    if (!same) {
      changed[field] = {
        from: old instanceof Date ? old.toISOString() : old,
        to: value instanceof Date ? value.toISOString() : value,
      };
    }
  }
  return changed;
}

/** An id that names no announcement: 402 "Invalid ID", with 404 so the console does not take it for a session end. */
const unknownAnnouncement = () => new ApiError(404, 402, 'announcement.admin_invalid_id');

async function findAnnouncement(db: Kysely<Database>, id: string): Promise<AnnouncementRow | undefined> {
  if (!isUuid(id)) return undefined;
  return db.selectFrom('announcements').selectAll().where('id', '=', id).executeTakeFirst();
}

// ---- the routes ----

export const adminAnnouncementRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (
  app,
  { db },
) => {
  const tags = ['announcements'];

  app.get(
    '/api/admin/announcement',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Announcements, a page at a time (ag-grid Infinite Row Model)',
        querystring: GridQuery,
        response: { 200: Ok(GridPage(AdminAnnouncement)), ...refusals },
      },
    },
    async (request) => {
      const query = request.query;
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
      return ok(request, {
        rows: page.map((row) => ({
          ...toAnnouncement(row),
          acks: {
            acknowledged: row.acks_100 ?? 0,
            rejected: row.acks_110 ?? 0,
            read: row.acks_120 ?? 0,
          },
        })),
        lastRow: total.n,
      });
    },
  );

  app.get(
    '/api/admin/announcement/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'One announcement',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: Ok(Announcement), ...refusals },
      },
    },
    async (request) => {
      const row = await findAnnouncement(db, request.params.id);
      if (!row) throw notFound();
      return ok(request, toAnnouncement(row));
    },
  );

  app.post(
    '/api/admin/announcement/add',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'Create an announcement (0 created; 400 a server message; 410 failed to create)',
        body: AddAnnouncement,
        response: { 200: Ok(Announcement), ...refusals },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const id = randomUUID();
      const values = rowValues(request.body);
      const row = await storageFailureAs(request.log, 410, 'announcement.create_failed', () =>
        db.transaction().execute(async (trx) => {
          const created = await trx
            .insertInto('announcements')
            .values({ id, ...values, created_by: admin.userId })
            .returningAll()
            .executeTakeFirstOrThrow();
          await logActivity(trx, {
            userId: admin.userId,
            action: 'announcement.created',
            subjectId: id,
            detail: { subject: values.subject, country: values.country, priority: values.priority },
          });
          return created;
        }),
      );
      return ok(request, toAnnouncement(row), 'announcement.created');
    },
  );

  app.post(
    '/api/admin/announcement/update',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary:
          'Replace an announcement (0 updated; 400 a server message; 401 missing ID; 402 invalid ID; 410 failed to update)',
        body: UpdateAnnouncement,
        response: { 200: Ok(Announcement), ...refusals },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const { id, ...fields } = request.body;
      const before = await findAnnouncement(db, id);
      if (!before) throw unknownAnnouncement();
      const values = rowValues(fields);
      const row = await storageFailureAs(request.log, 410, 'announcement.update_failed', () =>
        db.transaction().execute(async (trx) => {
          const updated = await trx
            .updateTable('announcements')
            .set({ ...values, updated_at: new Date() })
            .where('id', '=', id)
            .returningAll()
            .executeTakeFirst();
          // Deleted by another admin between the read and the write.
          if (!updated) throw new ApiError(400, 410, 'announcement.update_failed');
          await logActivity(trx, {
            userId: admin.userId,
            action: 'announcement.updated',
            subjectId: id,
            detail: { changes: changes(before, values) },
          });
          return updated;
        }),
      );
      return ok(request, toAnnouncement(row), 'announcement.updated');
    },
  );

  app.post(
    '/api/admin/announcement/delete',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary:
          'Delete an announcement and its acknowledgements (0 deleted; 401 missing ID; 402 invalid ID)',
        body: DeleteAnnouncement,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals },
      },
    },
    async (request) => {
      const admin = signedIn(request);
      const { id } = request.body;
      if (!isUuid(id)) throw unknownAnnouncement();
      await db.transaction().execute(async (trx) => {
        const deleted = await trx
          .deleteFrom('announcements')
          .where('id', '=', id)
          .returning(['subject'])
          .executeTakeFirst();
        if (!deleted) throw unknownAnnouncement();
        await logActivity(trx, {
          userId: admin.userId,
          action: 'announcement.deleted',
          subjectId: id,
          detail: { subject: deleted.subject },
        });
      });
      return ok(request, { id }, 'announcement.deleted');
    },
  );
};

/**
 * The catalogue's "failed to create / update" (410): the database refused the write. The log keeps the cause; the
 * caller learns only that the write failed. A refusal already decided (an ApiError) passes through unchanged.
 */
async function storageFailureAs<T>(
  log: FastifyBaseLogger,
  code: number,
  key: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof ApiError) throw error;
    log.error({ err: error }, 'announcement write failed');
    throw new ApiError(400, code, key);
  }
}
