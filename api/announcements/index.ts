import { GridPage, GridQuery, ok } from '@api/answers';
import { seller, signedIn } from '@api/auth/session';
import {
  AckAnswer,
  AcknowledgeAnnouncement,
  AddAnnouncement,
  AdminAnnouncement,
  Announcement,
  AnnouncementParams,
  DeleteAnnouncement,
  DeletedAnnouncement,
  SellerAnnouncement,
  UpdateAnnouncement,
} from '@api/contracts/announcements';
import { found } from '@api/errors';
import { router } from '@api/route';
import { ACK_MESSAGE, acknowledgeAnnouncement } from '@commands/announcements/acknowledge';
import { addAnnouncement, deleteAnnouncement, updateAnnouncement } from '@commands/announcements/admin';
import type { Db } from '@infra/db';
import {
  announcementById,
  listAdminAnnouncements,
  promptedAnnouncements,
  shownAnnouncement,
  shownAnnouncements,
} from '@projections/announcements/announcements';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Announcements (spec §3–5, codes §8): the provider's admins write them (`admin`); a seller's users see the ones
 * shown to them now and answer them (`seller`).
 */
export const announcementRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const admin = router(app, { tags: ['announcements'], access: 'admin' });

  admin.get(
    '/api/admin/announcement',
    {
      summary: 'Announcements, a page at a time (ag-grid Infinite Row Model)',
      query: GridQuery,
      answer: GridPage(AdminAnnouncement),
    },
    async (request) => ok(request, await listAdminAnnouncements(db, request.query)),
  );

  admin.get(
    '/api/admin/announcement/:id',
    { summary: 'One announcement', params: AnnouncementParams, answer: Announcement },
    async (request) => ok(request, found(await announcementById(db, request.params.id))),
  );

  admin.post(
    '/api/admin/announcement/add',
    { summary: 'Create an announcement', body: AddAnnouncement, answer: Announcement },
    async (request) => {
      const created = await addAnnouncement({ db, log: request.log }, signedIn(request), request.body);
      return ok(request, created, 'announcement.created');
    },
  );

  admin.post(
    '/api/admin/announcement/update',
    { summary: 'Replace an announcement', body: UpdateAnnouncement, answer: Announcement },
    async (request) => {
      const updated = await updateAnnouncement({ db, log: request.log }, signedIn(request), request.body);
      return ok(request, updated, 'announcement.updated');
    },
  );

  admin.post(
    '/api/admin/announcement/delete',
    {
      summary: 'Delete an announcement and its acknowledgements',
      body: DeleteAnnouncement,
      answer: DeletedAnnouncement,
    },
    async (request) => {
      const deleted = await deleteAnnouncement({ db, log: request.log }, signedIn(request), request.body);
      return ok(request, deleted, 'announcement.deleted');
    },
  );

  const shown = router(app, { tags: ['announcements'], access: 'seller' });

  shown.get(
    '/api/announcement',
    {
      summary: 'The announcements shown to me now, highest priority first',
      answer: z.array(SellerAnnouncement),
    },
    async (request) => ok(request, await shownAnnouncements(db, seller(request))),
  );

  shown.get(
    '/api/announcement/prompt',
    {
      summary: 'The announcements to prompt at sign-in: not yet answered for good nor set aside',
      answer: z.array(SellerAnnouncement),
    },
    async (request) => ok(request, await promptedAnnouncements(db, seller(request))),
  );

  shown.get(
    '/api/announcement/:id',
    { summary: 'One announcement shown to me now', params: AnnouncementParams, answer: SellerAnnouncement },
    async (request) => ok(request, found(await shownAnnouncement(db, seller(request), request.params.id))),
  );

  shown.post(
    '/api/announcement/acknowledge',
    {
      summary: 'Answer an announcement: 100 acknowledged, 110 rejected, 120 read',
      body: AcknowledgeAnnouncement,
      answer: AckAnswer,
    },
    async (request) => {
      const answer = await acknowledgeAnnouncement({ db }, seller(request), request.body);
      return ok(request, answer, ACK_MESSAGE[answer.status]);
    },
  );
};
