import { acknowledgeAnnouncement } from '@commands/announcements/acknowledge';
import type { Db } from '@infra/db';
import {
  promptedAnnouncements,
  shownAnnouncement,
  shownAnnouncements,
} from '@projections/announcements/announcements';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Ok, ok, refusals } from '../answers';
import { seller } from '../auth/session';
import {
  AckAnswer,
  AcknowledgeAnnouncement,
  AnnouncementParams,
  SellerAnnouncement,
} from '../contracts/announcements';
import { notFound } from '../errors';

/**
 * What a seller's users see of announcements: the ones shown to them now (active, within their dates, for every
 * country or the account's country), highest priority first; the ones to prompt at sign-in; and their answer, with
 * the codes of spec §8: 0 OK, 400 invalid ID, 401 invalid status, 410 invalid action, 420 error.
 */

const ACK_MESSAGE = { 100: 'announcement.ack.100', 110: 'announcement.ack.110', 120: 'announcement.ack.120' };

export const sellerAnnouncementRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['announcements'];

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
    async (request) => ok(request, await shownAnnouncements(db, seller(request))),
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
    async (request) => ok(request, await promptedAnnouncements(db, seller(request))),
  );

  app.get(
    '/api/announcement/:id',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary: 'One announcement shown to me now',
        params: AnnouncementParams,
        response: { 200: Ok(SellerAnnouncement), ...refusals },
      },
    },
    async (request) => {
      const announcement = await shownAnnouncement(db, seller(request), request.params.id);
      if (!announcement) throw notFound();
      return ok(request, announcement);
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
      const answer = await acknowledgeAnnouncement({ db }, seller(request), request.body);
      return ok(request, answer, ACK_MESSAGE[answer.status]);
    },
  );
};
