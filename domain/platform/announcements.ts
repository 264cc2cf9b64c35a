import { SUPPORTED_COUNTRY_CODES } from '@domain/lookups';
import { type ErrorTable, refuser } from '@domain/shared/errors';

/**
 * The provider's announcements (spec §3–5): what they may say, who sees them when, and how a user answers one —
 * acknowledged (100), rejected (110) or read (120), optionally "don't show again".
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

export interface AnnouncementWindow {
  is_active: boolean;
  start_at: Date;
  end_at: Date;
  requires_ack: boolean;
}

/** Shown now: active and within its dates. */
export const shownAt = (announcement: AnnouncementWindow, now: number) =>
  announcement.is_active && announcement.start_at.getTime() <= now && announcement.end_at.getTime() > now;

/** Accepting or rejecting is for announcements that ask for it; nothing is answered once it is taken down. */
export const mayAnswer = (announcement: AnnouncementWindow, status: AckStatus, now: number) =>
  shownAt(announcement, now) && (status === 120 || announcement.requires_ack);

export type AnnouncementErrorCode =
  | 'UNKNOWN'
  | 'ADMIN_UNKNOWN'
  | 'INVALID_ACTION'
  | 'ALREADY_ANSWERED'
  | 'CREATE_FAILED'
  | 'UPDATE_FAILED'
  | 'BAD_QUERY';

export const announcementErrors = {
  /** An id this user cannot see answers like one that does not exist. */
  UNKNOWN: { status: 404, code: 400, key: 'announcement.invalid_id' },
  /** An id that names no announcement: 402 "Invalid ID", with 404 so the console does not take it for a session end. */
  ADMIN_UNKNOWN: { status: 404, code: 402, key: 'announcement.admin_invalid_id' },
  INVALID_ACTION: { status: 400, code: 410, key: 'announcement.invalid_action' },
  ALREADY_ANSWERED: { status: 400, code: 420, key: 'announcement.already_answered' },
  CREATE_FAILED: { status: 400, code: 410, key: 'announcement.create_failed' },
  UPDATE_FAILED: { status: 400, code: 410, key: 'announcement.update_failed' },
  BAD_QUERY: { status: 400, code: 400, key: 'common.invalid_input' },
} satisfies ErrorTable<AnnouncementErrorCode>;

export const refuseAnnouncement = refuser(announcementErrors);
