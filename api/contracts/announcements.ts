import {
  ACK_STATUSES,
  ANNOUNCEMENT_COUNTRIES,
  CONTENT_MAX_LENGTH,
  PRIORITY_MAX,
  TITLE_MAX_LENGTH,
} from '@domain/platform/announcements';
import { z } from 'zod';
import { noBody } from './ids';
import { rule } from './rules';

/** Announcements (spec §3–5, codes §8): the admins' requests that write them, and the sellers' view and answer. */

export const Announcement = z.object({
  id: z.string(),
  subject: z.string(),
  content: z.string(),
  start_at: z.string(),
  end_at: z.string(),
  priority: z.number().int(),
  is_active: z.boolean(),
  requires_ack: z.boolean(),
  country: z.enum(ANNOUNCEMENT_COUNTRIES).nullable(),
  prompt: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Announcement = z.infer<typeof Announcement>;

// ---- the admins' requests: each field required, each refusal with the catalogue's code and message ----

/** "Missing announcement {field}" when absent or null, "Invalid announcement {field}" when of the wrong type or form. */
const fieldError =
  (field: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined || issue.input === null
      ? rule(400, `announcement.missing.${field}`)
      : rule(400, `announcement.invalid.${field}`);

const priorityMissing = (input: unknown) => input === undefined || input === null || input === '';
const priorityInvalid = rule(400, 'announcement.invalid.priority', { max: PRIORITY_MAX });

// Priority comes first: when it is missing, "Please provide priority" is the message (spec §5).
const AnnouncementFields = {
  priority: z
    .number({
      error: (issue) =>
        priorityMissing(issue.input) ? rule(400, 'announcement.provide_priority') : priorityInvalid,
    })
    .int(priorityInvalid)
    .min(0, priorityInvalid)
    .max(PRIORITY_MAX, priorityInvalid),
  subject: z
    .string({ error: fieldError('subject') })
    .trim()
    .min(1, rule(400, 'announcement.missing.subject'))
    .max(TITLE_MAX_LENGTH, rule(400, 'announcement.title_too_long', { max: TITLE_MAX_LENGTH })),
  content: z
    .string({ error: fieldError('content') })
    .trim()
    .min(1, rule(400, 'announcement.missing.content'))
    .max(CONTENT_MAX_LENGTH, rule(400, 'announcement.content_too_long', { max: CONTENT_MAX_LENGTH })),
  start_at: z.iso.datetime({ offset: true, error: fieldError('start_at') }),
  end_at: z.iso.datetime({ offset: true, error: fieldError('end_at') }),
  is_active: z.boolean({ error: fieldError('is_active') }),
  requires_ack: z.boolean({ error: fieldError('requires_ack') }),
  country: z.enum(ANNOUNCEMENT_COUNTRIES, { error: fieldError('country') }).nullable(),
  prompt: z.boolean({ error: fieldError('prompt') }),
};

const endAfterStart = {
  check: (body: { start_at: string; end_at: string }) => Date.parse(body.end_at) > Date.parse(body.start_at),
  params: { error: rule(400, 'announcement.end_before_start'), path: ['end_at'] },
};

const missingId = rule(401, 'announcement.missing_id');
const adminInvalidId = rule(402, 'announcement.admin_invalid_id');

/** The id of update and delete: absent or blank is 401 "Missing ID"; not a string, 402 "Invalid ID". */
const AnnouncementId = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? missingId : adminInvalidId),
  })
  .trim()
  .min(1, missingId)
  .max(64, adminInvalidId);

export const AddAnnouncement = z
  .strictObject(AnnouncementFields)
  .refine(endAfterStart.check, endAfterStart.params);
export type AddAnnouncement = z.infer<typeof AddAnnouncement>;

export const UpdateAnnouncement = z
  .strictObject({ id: AnnouncementId, ...AnnouncementFields }, noBody(missingId))
  .refine(endAfterStart.check, endAfterStart.params);
export type UpdateAnnouncement = z.infer<typeof UpdateAnnouncement>;

export const DeleteAnnouncement = z.strictObject({ id: AnnouncementId }, noBody(missingId));
export type DeleteAnnouncement = z.infer<typeof DeleteAnnouncement>;

export { DeletedRecord as DeletedAnnouncement } from './ids';

export const AnnouncementParams = z.object({ id: z.string().max(64) });

export const AdminAnnouncement = Announcement.extend({
  acks: z.object({
    acknowledged: z.number().int(),
    rejected: z.number().int(),
    read: z.number().int(),
  }),
});
export type AdminAnnouncement = z.infer<typeof AdminAnnouncement>;

// ---- the sellers' view and answer ----

export const SellerAnnouncement = Announcement.extend({
  ack_status: z.literal(ACK_STATUSES).nullable(),
  dont_show_again: z.boolean(),
});
export type SellerAnnouncement = z.infer<typeof SellerAnnouncement>;

const invalidId = rule(400, 'announcement.invalid_id');

export const AcknowledgeAnnouncement = z.strictObject(
  {
    id: z.string({ error: invalidId }).trim().min(1, invalidId).max(64, invalidId),
    status: z.literal(ACK_STATUSES, { error: rule(401, 'announcement.invalid_status') }),
    dont_show_again: z.boolean().optional(),
  },
  noBody(invalidId),
);
export type AcknowledgeAnnouncement = z.infer<typeof AcknowledgeAnnouncement>;

export const AckAnswer = z.object({
  id: z.string(),
  status: z.literal(ACK_STATUSES),
  dont_show_again: z.boolean(),
});
export type AckAnswer = z.infer<typeof AckAnswer>;
