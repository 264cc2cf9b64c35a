import { randomUUID } from 'node:crypto';
import type { AddAnnouncement, Announcement, UpdateAnnouncement } from '@api/contracts/announcements';
import { type AnnouncementErrorCode, refuseAnnouncement } from '@domain/platform/announcements';
import { isUuid } from '@domain/platform/ids';
import { refusalOf } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import {
  type AnnouncementRow,
  findAnnouncement,
  toAnnouncement,
} from '@projections/announcements/announcements';
import type { Kysely, Transaction } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';

/**
 * The provider's admins write announcements (spec §3–5): add, replace, delete. Every change leaves an activity-log
 * row; announcements are the provider's, not a tenant's.
 */

export interface AnnouncementDeps {
  db: Kysely<Database>;
  /** Where a refused write's cause is logged (the caller learns only that it failed). */
  log: { error(details: object, message: string): void };
}

/** The admin acting: not a tenant's user. */
export type Admin = Pick<Actor, 'userId'>;

function log(
  db: Kysely<Database> | Transaction<Database>,
  entry: { userId: string; action: string; subjectId: string; detail: Record<string, unknown> },
) {
  return logActivity(db, { tenantId: null, subjectType: 'announcement', ...entry });
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

/**
 * The catalogue's "failed to create / update" (410): the database refused the write. The log keeps the cause; the
 * caller learns only that the write failed. A refusal already decided passes through unchanged.
 */
async function storageFailureAs<T>(
  deps: AnnouncementDeps,
  code: AnnouncementErrorCode,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (refusalOf(error)) throw error;
    deps.log.error({ err: error }, 'announcement write failed');
    throw refuseAnnouncement(code);
  }
}

export async function addAnnouncement(
  deps: AnnouncementDeps,
  admin: Admin,
  input: AddAnnouncement,
): Promise<Announcement> {
  const id = randomUUID();
  const values = rowValues(input);
  const row = await storageFailureAs(deps, 'CREATE_FAILED', () =>
    deps.db.transaction().execute(async (trx) => {
      const created = await trx
        .insertInto('announcements')
        .values({ id, ...values, created_by: admin.userId })
        .returningAll()
        .executeTakeFirstOrThrow();
      await log(trx, {
        userId: admin.userId,
        action: 'announcement.created',
        subjectId: id,
        detail: { subject: values.subject, country: values.country, priority: values.priority },
      });
      return created;
    }),
  );
  return toAnnouncement(row);
}

export async function updateAnnouncement(
  deps: AnnouncementDeps,
  admin: Admin,
  input: UpdateAnnouncement,
): Promise<Announcement> {
  const { id, ...fields } = input;
  const before = await findAnnouncement(deps.db, id);
  if (!before) throw refuseAnnouncement('ADMIN_UNKNOWN');
  const values = rowValues(fields);
  const row = await storageFailureAs(deps, 'UPDATE_FAILED', () =>
    deps.db.transaction().execute(async (trx) => {
      const updated = await trx
        .updateTable('announcements')
        .set({ ...values, updated_at: new Date() })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      // Deleted by another admin between the read and the write.
      if (!updated) throw refuseAnnouncement('UPDATE_FAILED');
      await log(trx, {
        userId: admin.userId,
        action: 'announcement.updated',
        subjectId: id,
        detail: { changes: changes(before, values) },
      });
      return updated;
    }),
  );
  return toAnnouncement(row);
}

/** An announcement deleted with its acknowledgements. */
export async function deleteAnnouncement(
  deps: AnnouncementDeps,
  admin: Admin,
  input: { id: string },
): Promise<{ id: string }> {
  const { id } = input;
  if (!isUuid(id)) throw refuseAnnouncement('ADMIN_UNKNOWN');
  await deps.db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('announcements')
      .where('id', '=', id)
      .returning(['subject'])
      .executeTakeFirst();
    if (!deleted) throw refuseAnnouncement('ADMIN_UNKNOWN');
    await log(trx, {
      userId: admin.userId,
      action: 'announcement.deleted',
      subjectId: id,
      detail: { subject: deleted.subject },
    });
  });
  return { id };
}
