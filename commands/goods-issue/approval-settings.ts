import type { ApprovalSettingsAnswer, ApprovalSettingsBody } from '@api/contracts/goods-issue';
import type { Database } from '@infra/db';
import { settingsAnswer } from '@projections/goods-issue.queries';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import type { Answered } from '../support/answer';

/**
 * The account's approval settings of goods issue notes (a plain table: the owner changes them, notes already
 * submitted keep the settings they were submitted with).
 */
export async function saveApprovalSettings(
  deps: { db: Kysely<Database> },
  actor: Actor,
  body: ApprovalSettingsBody,
): Promise<Answered<ApprovalSettingsAnswer>> {
  const values = {
    layers: body.layers,
    reminder_seconds: body.reminder_minutes * 60,
    allow_same_approver: body.allow_same_approver,
    updated_by: actor.userId,
  };
  const row = await deps.db
    .insertInto('approval_settings')
    .values({ tenant_id: actor.tenantId, ...values })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .returning(['layers', 'reminder_seconds', 'allow_same_approver', 'updated_at'])
    .executeTakeFirstOrThrow();
  const settings = {
    layers: row.layers,
    reminderSeconds: row.reminder_seconds,
    allowSameApprover: row.allow_same_approver,
  };
  return [settingsAnswer(settings, row.updated_at), 'goods_issue.settings.saved'];
}
