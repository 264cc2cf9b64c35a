import type { AckAnswer, AcknowledgeAnnouncement } from '@api/contracts/announcements';
import { FINAL_ACK_STATUSES, mayAnswer, refuseAnnouncement } from '@domain/platform/announcements';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { accountCountry } from '@projections/announcements/announcements';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';

/**
 * A user's answer to an announcement: acknowledged (100), rejected (110) or read (120). An acknowledgement or a
 * rejection is final: the same answer again is harmless, a different one refused.
 */
export async function acknowledgeAnnouncement(
  { db }: { db: Kysely<Database> },
  actor: Actor,
  input: AcknowledgeAnnouncement,
): Promise<AckAnswer> {
  const { id, status, dont_show_again } = input;
  if (!isUuid(id)) throw refuseAnnouncement('UNKNOWN');
  const country = await accountCountry(db, actor.tenantId);
  const announcement = await db
    .selectFrom('announcements')
    .select(['id', 'country', 'is_active', 'start_at', 'end_at', 'requires_ack'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!announcement || (announcement.country !== null && announcement.country !== country)) {
    throw refuseAnnouncement('UNKNOWN');
  }
  if (!mayAnswer(announcement, status, Date.now())) throw refuseAnnouncement('INVALID_ACTION');

  const saved = await db
    .insertInto('announcement_acks')
    .values({ announcement_id: id, user_id: actor.userId, status, dont_show_again: dont_show_again ?? false })
    .onConflict((oc) =>
      oc
        .columns(['announcement_id', 'user_id'])
        .doUpdateSet((eb) => ({
          status: eb.ref('excluded.status'),
          dont_show_again:
            dont_show_again === undefined
              ? eb.ref('announcement_acks.dont_show_again')
              : eb.ref('excluded.dont_show_again'),
          updated_at: new Date(),
        }))
        .where((eb) =>
          eb.or([
            eb('announcement_acks.status', 'not in', [...FINAL_ACK_STATUSES]),
            eb('announcement_acks.status', '=', eb.ref('excluded.status')),
          ]),
        ),
    )
    .returning(['status', 'dont_show_again'])
    .executeTakeFirst();
  if (!saved) throw refuseAnnouncement('ALREADY_ANSWERED');
  return { id, status: saved.status, dont_show_again: saved.dont_show_again };
}

/** The answer's message, by the status recorded. */
export const ACK_MESSAGE = {
  100: 'announcement.ack.100',
  110: 'announcement.ack.110',
  120: 'announcement.ack.120',
} as const;
