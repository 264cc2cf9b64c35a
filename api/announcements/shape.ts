import { SUPPORTED_COUNTRY_CODES } from '@domain/lookups';
import type { AnnouncementsTable } from '@infra/db';
import type { Selectable } from 'kysely';
import { z } from 'zod';

/**
 * What an announcement is (spec §3) as the API answers it, shared by the admin routes that write announcements and
 * the seller routes that show and acknowledge them.
 */

/** The countries an announcement may target (spec §9); null targets every country. */
export const ANNOUNCEMENT_COUNTRIES = SUPPORTED_COUNTRY_CODES;
export type AnnouncementCountry = (typeof ANNOUNCEMENT_COUNTRIES)[number];

/** "Title is more than N characters" (spec §5 leaves N open). */
export const TITLE_MAX_LENGTH = 150;
export const CONTENT_MAX_LENGTH = 20_000;
export const PRIORITY_MAX = 1_000_000;

/** Acknowledgement outcomes (spec §4): acknowledged, rejected, read. */
export const ACK_STATUSES = [100, 110, 120] as const;
export type AckStatus = (typeof ACK_STATUSES)[number];
/** The answers a user cannot take back: once acknowledged or rejected, a different answer is refused (420). */
export const FINAL_ACK_STATUSES: readonly AckStatus[] = [100, 110];

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

export type AnnouncementRow = Selectable<AnnouncementsTable>;

export function toAnnouncement(row: AnnouncementRow): Announcement {
  return {
    id: row.id,
    subject: row.subject,
    content: row.content,
    start_at: row.start_at.toISOString(),
    end_at: row.end_at.toISOString(),
    priority: row.priority,
    is_active: row.is_active,
    requires_ack: row.requires_ack,
    country: row.country as AnnouncementCountry | null,
    prompt: row.prompt,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export { isUuid } from '@api/ids';
