import { addAnnouncement, deleteAnnouncement, updateAnnouncement } from '@commands/announcements/admin';
import type { Db } from '@infra/db';
import {
  findAnnouncement,
  listAdminAnnouncements,
  toAnnouncement,
} from '@projections/announcements/announcements';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { GridPage, GridQuery, Ok, ok, refusals } from '../answers';
import { signedIn } from '../auth/session';
import {
  AddAnnouncement,
  AdminAnnouncement,
  Announcement,
  AnnouncementParams,
  DeleteAnnouncement,
  DeletedAnnouncement,
  UpdateAnnouncement,
} from '../contracts/announcements';
import { notFound } from '../errors';

/**
 * The provider's admins write announcements (spec §3–5): list, read, add, update, delete, answering with the codes of
 * spec §8 — add 0/400/410, update 0/400/401/402/410, delete 0/401/402 (commands/announcements/admin.ts).
 */
export const adminAnnouncementRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
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
    async (request) => ok(request, await listAdminAnnouncements(db, request.query)),
  );

  app.get(
    '/api/admin/announcement/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        summary: 'One announcement',
        params: AnnouncementParams,
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
    async (request) =>
      ok(
        request,
        await addAnnouncement({ db, log: request.log }, signedIn(request), request.body),
        'announcement.created',
      ),
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
    async (request) =>
      ok(
        request,
        await updateAnnouncement({ db, log: request.log }, signedIn(request), request.body),
        'announcement.updated',
      ),
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
        response: { 200: Ok(DeletedAnnouncement), ...refusals },
      },
    },
    async (request) =>
      ok(
        request,
        await deleteAnnouncement({ db, log: request.log }, signedIn(request), request.body),
        'announcement.deleted',
      ),
  );
};
