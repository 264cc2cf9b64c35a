import { MASTER_CODE_IMAGE, refuseMasterCode } from '@domain/inventory/reference';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import type { Kysely, Transaction } from 'kysely';
import { type ImageRules, storedImage, storedImagesOf, storeImage } from '../support/images';

/**
 * Master codes' pictures (spec §3 "Master code": image): uploaded to the app's one image store first, then named by
 * the master code (`image_id`); an image elsewhere is still named by its address (`image_url`). One or the other.
 */

const rules: ImageRules = {
  purpose: 'master_code',
  types: MASTER_CODE_IMAGE.types,
  maxBytes: MASTER_CODE_IMAGE.maxBytes,
  invalid: () => refuseMasterCode('IMAGE_INVALID'),
  tooLarge: () => refuseMasterCode('IMAGE_TOO_LARGE', { max: MASTER_CODE_IMAGE.maxBytes / 1024 / 1024 }),
};

export const uploadMasterCodeImage = (
  deps: { db: Kysely<Database> },
  actor: { tenantId: string; userId: string },
  bytes: unknown,
) => storeImage(deps, actor, bytes, rules);

/** A master code image of the account's (undefined: another account's, a return's, or none). */
export const masterCodeImage = (db: Kysely<Database>, tenantId: string, id: string) =>
  isUuid(id) ? storedImage(db, tenantId, 'master_code', id) : Promise.resolve(undefined);

type ImageFields = { image_id?: string | null; image_url?: string | null };

/**
 * The image fields a write stores: an uploaded image must be one of the account's master code images, and naming
 * one of the two clears the other (a master code shows one picture); naming both at once is refused.
 */
export async function imageFieldsOf<Body extends ImageFields>(
  db: Kysely<Database> | Transaction<Database>,
  tenantId: string,
  body: Body,
): Promise<Body> {
  const { image_id: imageId, image_url: imageUrl } = body;
  // An empty id names no image (null clears it): refused like an unknown one, never stored into the uuid column.
  if (imageId != null && imageUrl) throw refuseMasterCode('IMAGE_TWICE');
  if (imageId != null) {
    const found = isUuid(imageId) ? await storedImagesOf(db, tenantId, 'master_code', [imageId]) : [];
    if (found.length === 0) throw refuseMasterCode('IMAGE_NOT_FOUND');
    return { ...body, image_url: null };
  }
  return imageUrl ? { ...body, image_id: null } : body;
}
