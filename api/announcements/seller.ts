import type { Database } from '@infra/db';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ExpressionBuilder, Kysely, Nullable } from 'kysely';
import { z } from 'zod';
import { Ok, ok, refusals } from '../answers';
import { type SellerSession, seller } from '../auth/session';
import { ApiError, invalid, notFound } from '../errors';
import {
  ACK_STATUSES,
  Announcement,
  type AnnouncementRow,
  FINAL_ACK_STATUSES,
  isUuid,
  toAnnouncement,
} from './shape';

/**
 * What a seller's users see of announcements: the ones shown to them now (active, within their dates, for every
 * country or the account's country), highest priority first; the ones to prompt at sign-in; and their answer —
 * acknowledged (100), rejected (110) or read (120), optionally "don't show again" — with the codes of spec §8:
 * 0 OK, 400 invalid ID, 401 invalid status, 410 invalid action, 420 error.
 */

export const SellerAnnouncement = Announcement.extend({
  ack_status: z.literal(ACK_STATUSES).nullable(),
  dont_show_again: z.boolean(),
});
export type SellerAnnouncement = z.infer<typeof SellerAnnouncement>;

const invalidId = invalid(400, 'announcement.invalid_id');

export const AcknowledgeAnnouncement = z.strictObject(
  {
    id: z.string({ error: invalidId }).trim().min(1, invalidId).max(64, invalidId),
    status: z.literal(ACK_STATUSES, { error: invalid(401, 'announcement.invalid_status') }),
    dont_show_again: z.boolean().optional(),
  },
  { error: (issue) => (issue.code === 'invalid_type' && issue.input == null ? invalidId : undefined) },
);
export type AcknowledgeAnnouncement = z.infer<typeof AcknowledgeAnnouncement>;

export const AckAnswer = z.object({
  id: z.string(),
  status: z.literal(ACK_STATUSES),
  dont_show_again: z.boolean(),
});

const ACK_MESSAGE = { 100: 'announcement.ack.100', 110: 'announcement.ack.110', 120: 'announcement.ack.120' };

/** An id this user cannot see answers like one that does not exist. */
const unknownAnnouncement = () => new ApiError(404, 400, 'announcement.invalid_id');

type Aliased = Database & {
  a: Database['announcements'];
  k: Nullable<Database['announcement_acks']>;
};
type Eb = ExpressionBuilder<Aliased, 'a' | 'k'>;

/** Meant for this account: every country, or the account's own. */
const targets = (eb: Eb, country: string) =>
  eb.or([eb('a.country', 'is', null), eb('a.country', '=', country)]);

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

export const sellerAnnouncementRoutes: FastifyPluginAsyncZod<{ db: Kysely<Database> }> = async (
  app,
  { db },
) => {
  const tags = ['announcements'];

  async function accountCountry(session: SellerSession): Promise<string> {
    const tenant = await db
      .selectFrom('tenants')
      .select('country')
      .where('id', '=', session.tenantId)
      .executeTakeFirstOrThrow();
    return tenant.country;
  }

  /** The announcements with this user's answer, newest answer state joined. */
  const withAnswers = (session: SellerSession) =>
    db
      .selectFrom('announcements as a')
      .leftJoin('announcement_acks as k', (join) =>
        join.onRef('k.announcement_id', '=', 'a.id').on('k.user_id', '=', session.userId),
      )
      .selectAll('a')
      .select(['k.status as ack_status', 'k.dont_show_again as ack_dont_show_again']);

  app.get(
    '/api/announcement',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary: 'The announcements shown to me now, highest priority first',
        response: { 200: Ok(z.array(SellerAnnouncement)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const country = await accountCountry(session);
      const now = new Date();
      const rows = await withAnswers(session)
        .where((eb) => eb.and([shownAt(eb, now), targets(eb, country)]))
        .orderBy('a.priority', 'desc')
        .orderBy('a.start_at', 'desc')
        .orderBy('a.id')
        .execute();
      return ok(request, rows.map(toSellerAnnouncement));
    },
  );

  app.get(
    '/api/announcement/prompt',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary: 'The announcements to prompt at sign-in: not yet answered for good nor set aside',
        response: { 200: Ok(z.array(SellerAnnouncement)), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const country = await accountCountry(session);
      const now = new Date();
      const rows = await withAnswers(session)
        .where((eb) =>
          eb.and([
            shownAt(eb, now),
            targets(eb, country),
            eb('a.prompt', '=', true),
            eb.or([
              eb('k.status', 'is', null),
              eb.and([
                eb('k.status', 'not in', [...FINAL_ACK_STATUSES]),
                eb('k.dont_show_again', '=', false),
              ]),
            ]),
          ]),
        )
        .orderBy('a.priority', 'desc')
        .orderBy('a.start_at', 'desc')
        .orderBy('a.id')
        .execute();
      return ok(request, rows.map(toSellerAnnouncement));
    },
  );

  app.get(
    '/api/announcement/:id',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary: 'One announcement shown to me now',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: Ok(SellerAnnouncement), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { id } = request.params;
      if (!isUuid(id)) throw notFound();
      const country = await accountCountry(session);
      const now = new Date();
      const row = await withAnswers(session)
        .where('a.id', '=', id)
        .where((eb) => eb.and([shownAt(eb, now), targets(eb, country)]))
        .executeTakeFirst();
      if (!row) throw notFound();
      return ok(request, toSellerAnnouncement(row));
    },
  );

  app.post(
    '/api/announcement/acknowledge',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'Answer an announcement: 100 acknowledged, 110 rejected, 120 read (0 OK; 400 invalid ID; 401 invalid status; 410 invalid action; 420 error)',
        body: AcknowledgeAnnouncement,
        response: { 200: Ok(AckAnswer), ...refusals },
      },
    },
    async (request) => {
      const session = seller(request);
      const { id, status, dont_show_again } = request.body;
      if (!isUuid(id)) throw unknownAnnouncement();
      const country = await accountCountry(session);
      const announcement = await db
        .selectFrom('announcements')
        .select(['id', 'country', 'is_active', 'start_at', 'end_at', 'requires_ack'])
        .where('id', '=', id)
        .executeTakeFirst();
      if (!announcement || (announcement.country !== null && announcement.country !== country)) {
        throw unknownAnnouncement();
      }
      const now = Date.now();
      const shown =
        announcement.is_active &&
        announcement.start_at.getTime() <= now &&
        announcement.end_at.getTime() > now;
      // Accepting or rejecting is for announcements that ask for it; nothing is answered once it is taken down.
      if (!shown || (status !== 120 && !announcement.requires_ack)) {
        throw new ApiError(400, 410, 'announcement.invalid_action');
      }

      // An acknowledgement or a rejection is final: the same answer again is harmless, a different one refused.
      const saved = await db
        .insertInto('announcement_acks')
        .values({
          announcement_id: id,
          user_id: session.userId,
          status,
          dont_show_again: dont_show_again ?? false,
        })
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
      if (!saved) throw new ApiError(400, 420, 'announcement.already_answered');
      return ok(
        request,
        { id, status: saved.status, dont_show_again: saved.dont_show_again },
        ACK_MESSAGE[status],
      );
    },
  );
};
