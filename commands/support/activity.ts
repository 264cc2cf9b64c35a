import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/**
 * The activity log (ARCHITECTURE.md: reference data changes in plain tables, each with an activity-log row): who did
 * what to which record, in the transaction of the change when there is one.
 */
export interface Activity<SubjectType extends string = string> {
  /** Null for the provider's own records (announcements). */
  tenantId: string | null;
  userId: string | null;
  action: string;
  subjectType: SubjectType;
  subjectId: string;
  detail?: Record<string, unknown>;
}

export async function logActivity<SubjectType extends string>(
  db: Kysely<Database>,
  activity: Activity<SubjectType>,
): Promise<void> {
  await db
    .insertInto('activity_log')
    .values({
      tenant_id: activity.tenantId,
      user_id: activity.userId,
      action: activity.action,
      subject_type: activity.subjectType,
      subject_id: activity.subjectId,
      detail: JSON.stringify(activity.detail ?? {}),
    })
    .execute();
}
