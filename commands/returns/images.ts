import { RETURN_IMAGE_TYPES, RETURN_LIMITS, refuse } from '@domain/returns/return';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { type ImageRules, storedImage, storedImagesOf, storeImage } from '../support/images';

/**
 * Images attached to returns (spec §3 "Return": image attachments): uploaded first, each a PNG, JPEG or WebP of at
 * most RETURN_LIMITS.imageBytes, then named by the return that takes them (the returns projection gives them to it).
 * Kept in the app's one image store (commands/support/images.ts).
 */

const rules: ImageRules = {
  purpose: 'return',
  types: RETURN_IMAGE_TYPES,
  maxBytes: RETURN_LIMITS.imageBytes,
  invalid: () => refuse('IMAGE_INVALID'),
  tooLarge: () => refuse('IMAGE_TOO_LARGE', { max: RETURN_LIMITS.imageBytes / 1024 / 1024 }),
};

export const uploadReturnImage = (
  deps: { db: Kysely<Database> },
  actor: { tenantId: string; userId: string },
  bytes: unknown,
) => storeImage(deps, actor, bytes, rules);

/** An image of the account's returns (undefined: another account's, or none). */
export const returnImage = (db: Kysely<Database>, tenantId: string, id: string) =>
  storedImage(db, tenantId, 'return', id);

/** The account's return images among `ids`, with the return holding each (null: not attached yet). */
export const returnImagesOf = (db: Kysely<Database>, tenantId: string, ids: readonly string[]) =>
  storedImagesOf(db, tenantId, 'return', ids);
