import { refuseListing } from '@domain/listings/rules';
import { isUuid } from '@domain/platform/ids';
import { IMAGE_TYPES } from '@domain/shared/images';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { type ImageRules, storedImage, storedImagesOf, storeImage } from '../support/images';

/**
 * A listing's pictures (spec §3 images, variant gallery) uploaded to the app's one image store, then named by the
 * listing by id (an image elsewhere is named by its https URL). "Image upload failed, try again" (§8) for bytes that
 * are no image of the accepted types.
 */

export const LISTING_IMAGE = { types: IMAGE_TYPES, maxBytes: 2 * 1024 * 1024 } as const;

const rules: ImageRules = {
  purpose: 'listing',
  types: LISTING_IMAGE.types,
  maxBytes: LISTING_IMAGE.maxBytes,
  invalid: () => refuseListing('IMAGE_INVALID'),
  tooLarge: () => refuseListing('IMAGE_TOO_LARGE', { max: LISTING_IMAGE.maxBytes / 1024 / 1024 }),
};

export const uploadListingImage = (
  deps: { db: Kysely<Database> },
  actor: { tenantId: string; userId: string },
  bytes: unknown,
) => storeImage(deps, actor, bytes, rules);

/** A listing image of the account's (undefined: another account's, another purpose's, or none). */
export const listingImage = (db: Kysely<Database>, tenantId: string, id: string) =>
  isUuid(id) ? storedImage(db, tenantId, 'listing', id) : Promise.resolve(undefined);

/** Refuses a listing naming an uploaded image the account does not have as a listing image. */
export async function checkUploadedImages(db: Kysely<Database>, tenantId: string, ids: readonly string[]) {
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (wanted.length === 0) return;
  const valid = wanted.filter(isUuid);
  const found = await storedImagesOf(db, tenantId, 'listing', valid);
  if (found.length !== wanted.length) throw refuseListing('IMAGE_NOT_FOUND');
}
