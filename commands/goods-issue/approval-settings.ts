import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';

/**
 * The account's approval settings of goods issue notes (a plain table: the owner changes them, notes already
 * submitted keep the settings they were submitted with).
 */
export async function saveApprovalSettings(
  deps: { db: Kysely<Database> },
  actor: Actor,
  input: { layers: number; reminderSeconds: number; allowSameApprover: boolean },
) {
  const values = {
    layers: input.layers,
    reminder_seconds: input.reminderSeconds,
    allow_same_approver: input.allowSameApprover,
    updated_by: actor.userId,
  };
  return deps.db
    .insertInto('approval_settings')
    .values({ tenant_id: actor.tenantId, ...values })
    .onConflict((oc) => oc.column('tenant_id').doUpdateSet({ ...values, updated_at: new Date() }))
    .returning(['layers', 'reminder_seconds', 'allow_same_approver', 'updated_at'])
    .executeTakeFirstOrThrow();
}
