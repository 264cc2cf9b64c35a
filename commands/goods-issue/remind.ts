import { ginApprovalKey } from '@domain/approvals/layers';
import { waitingLayer } from '@domain/goods-issue/decider';
import type { GinEvent } from '@domain/goods-issue/events';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { languageOf, translate } from '@infra/i18n';
import type { Mailer } from '@infra/mail';
import { type Kysely, sql } from 'kysely';
import { handleGoodsIssueCommand, loadGoodsIssue } from './goods-issue';

/**
 * The reminder of an approval left waiting (the workflow's timer calls it): every active user of the account who
 * holds the waiting layer's key — the owner holds them all — gets a mail, then the note records
 * GinApprovalReminded (layer, which reminder, who was mailed) for its timeline.
 *
 * The mails go before the record, so a crash between the two repeats mail rather than losing it; a reminder already
 * recorded (the activity retried after recording) mails nobody again. A layer approved meanwhile is not reminded.
 */

export const GIN_REMINDER_PURPOSE = 'gin-approval-reminder';

export interface Approver {
  id: string;
  email: string;
  first_name: string;
  language: string;
}

/** The active users of an account holding `key`: the owner, and sub-users whose group grants it. */
export async function holdersOf(db: Kysely<Database>, tenantId: string, key: string): Promise<Approver[]> {
  return db
    .selectFrom('users as u')
    .leftJoin('user_groups as g', 'g.id', 'u.group_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.language'])
    .where('u.tenant_id', '=', tenantId)
    .where('u.status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb('u.kind', '=', 'owner'),
        eb.and([eb('u.kind', '=', 'subuser'), sql<boolean>`${key} = ANY(g.permissions)`]),
      ]),
    )
    .orderBy('u.email')
    .execute();
}

export interface RemindInput {
  tenantId: string;
  ginId: string;
  layer: number;
  /** Which reminder of this layer: 1, 2, … */
  reminder: number;
  at: string;
  workflowId: string;
}

export async function remindApprovers(
  db: Kysely<Database>,
  store: EventStore,
  mailer: Mailer,
  input: RemindInput,
): Promise<GinEvent[]> {
  const loaded = await loadGoodsIssue(store, input.tenantId, input.ginId);
  if (!loaded || waitingLayer(loaded.state) !== input.layer) return [];
  const recorded = loaded.timeline.find(
    (entry) =>
      entry.type === 'GinApprovalReminded' &&
      (entry.data as { layer: number; reminder: number }).layer === input.layer &&
      (entry.data as { layer: number; reminder: number }).reminder === input.reminder,
  );
  if (recorded) return [{ type: 'GinApprovalReminded', data: recorded.data } as GinEvent];

  const note = loaded.state;
  const approvals = note.approval?.approvals ?? [];
  const waitingSince = approvals.length > 0 ? approvals[approvals.length - 1]!.at : note.submittedAt!;
  const minutes = Math.max(0, Math.floor((Date.parse(input.at) - Date.parse(waitingSince)) / 60_000));
  const approvers = await holdersOf(db, input.tenantId, ginApprovalKey(input.layer));
  for (const approver of approvers) {
    const language = languageOf(approver.language);
    const params = {
      name: approver.first_name,
      reference: note.reference,
      layer: input.layer,
      count: minutes,
    };
    await mailer.send({
      to: approver.email,
      subject: translate(language, 'goods_issue.reminder.subject', params),
      body: translate(language, 'goods_issue.reminder.body', params),
      purpose: GIN_REMINDER_PURPOSE,
    });
  }
  const result = await handleGoodsIssueCommand(
    store,
    input.tenantId,
    input.ginId,
    {
      type: 'RemindGoodsIssueApprovers',
      layer: input.layer,
      reminder: input.reminder,
      recipients: approvers.map((approver) => approver.id),
      at: input.at,
    },
    {
      commandId: `${input.workflowId}:remind:${input.layer}:${input.reminder}`,
      correlationId: input.workflowId,
      occurredAt: input.at,
    },
  );
  return result.events;
}
