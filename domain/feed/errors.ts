import { type ErrorTable, refuser } from '@domain/shared/errors';

/**
 * The refusals of the event feed and of apps (issue 16 allocates 820–839; the spec gives none). A refused key is a
 * 401 and an event type outside the app's scope a 403, whatever the reason, so a caller learns nothing of another
 * tenant's apps.
 */
export const FeedCode = {
  keyInvalid: 820,
  typeOutOfScope: 821,
  positionInvalid: 822,
  positionAhead: 823,
  typeUnknown: 824,
  rateLimited: 825,
  nameRequired: 826,
  typesRequired: 827,
  appRevoked: 828,
  creatorCannotRead: 829,
} as const;

export const FEED_ERRORS = [
  'FEED_KEY_INVALID',
  'FEED_TYPE_OUT_OF_SCOPE',
  'FEED_POSITION_INVALID',
  'FEED_POSITION_AHEAD',
  'FEED_TYPE_UNKNOWN',
  'FEED_RATE_LIMITED',
  'APP_NOT_FOUND',
  'APP_NAME_REQUIRED',
  'APP_TYPES_REQUIRED',
  'APP_REVOKED',
  'APP_CREATOR_CANNOT_READ',
] as const;
export type FeedErrorCode = (typeof FEED_ERRORS)[number];

const C = FeedCode;

export const feedErrors = {
  FEED_KEY_INVALID: { status: 401, code: C.keyInvalid, key: 'feed.key_invalid' },
  FEED_TYPE_OUT_OF_SCOPE: { status: 403, code: C.typeOutOfScope, key: 'feed.type_out_of_scope' },
  FEED_POSITION_INVALID: { status: 400, code: C.positionInvalid, key: 'feed.position_invalid' },
  FEED_POSITION_AHEAD: { status: 400, code: C.positionAhead, key: 'feed.position_ahead' },
  FEED_TYPE_UNKNOWN: { status: 400, code: C.typeUnknown, key: 'feed.type_unknown' },
  FEED_RATE_LIMITED: { status: 429, code: C.rateLimited, key: 'feed.rate_limited' },
  APP_NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  APP_NAME_REQUIRED: { status: 400, code: C.nameRequired, key: 'feed.app_name_required' },
  APP_TYPES_REQUIRED: { status: 400, code: C.typesRequired, key: 'feed.app_types_required' },
  APP_REVOKED: { status: 409, code: C.appRevoked, key: 'feed.app_revoked' },
  APP_CREATOR_CANNOT_READ: { status: 403, code: C.creatorCannotRead, key: 'feed.creator_cannot_read' },
} satisfies ErrorTable<FeedErrorCode>;

export const refuseFeed = refuser(feedErrors);
