import { randomUUID } from 'node:crypto';
import { type ImageType, imageTypeOf } from '@domain/shared/images';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';

/**
 * The app's one store of uploaded images (`uploaded_images`): a return's attachments, a master code's picture. Each
 * image is kept with the purpose it was uploaded for, so one uploaded for a return is never found as a master code's,
 * and is read only within its account (another account's id finds nothing, as a missing one).
 */

export type ImagePurpose = 'return' | 'master_code' | 'listing';

export interface ImageRules {
  purpose: ImagePurpose;
  types: readonly ImageType[];
  maxBytes: number;
  /** The refusals of the caller's own table: not one of `types` by its bytes, or too large. */
  invalid(): Error;
  tooLarge(): Error;
}

export interface StoredImage {
  id: string;
  content_type: ImageType;
  bytes: number;
}

/** Keeps the bytes when they are an image of the accepted types within the size; answers its id. */
export async function storeImage(
  deps: { db: Kysely<Database> },
  actor: { tenantId: string; userId: string },
  bytes: unknown,
  rules: ImageRules,
): Promise<StoredImage> {
  if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw rules.invalid();
  if (bytes.length > rules.maxBytes) throw rules.tooLarge();
  const type = imageTypeOf(bytes);
  if (!type || !rules.types.includes(type)) throw rules.invalid();
  const id = randomUUID();
  await deps.db
    .insertInto('uploaded_images')
    .values({
      id,
      tenant_id: actor.tenantId,
      purpose: rules.purpose,
      content_type: type,
      byte_size: bytes.length,
      data: bytes,
      uploaded_by: actor.userId,
    })
    .execute();
  return { id, content_type: type, bytes: bytes.length };
}

/** An image of the account's for `purpose` (undefined: another account's, another purpose's, or none). */
export function storedImage(db: Kysely<Database>, tenantId: string, purpose: ImagePurpose, id: string) {
  return db
    .selectFrom('uploaded_images')
    .select(['content_type', 'data'])
    .where('tenant_id', '=', tenantId)
    .where('purpose', '=', purpose)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Which of `ids` are the account's images for `purpose`, with their size, type and the return holding them. */
export async function storedImagesOf(
  db: Kysely<Database>,
  tenantId: string,
  purpose: ImagePurpose,
  ids: readonly string[],
) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('uploaded_images')
    .select(['id', 'content_type', 'byte_size', 'return_id'])
    .where('tenant_id', '=', tenantId)
    .where('purpose', '=', purpose)
    .where('id', 'in', [...ids])
    .execute();
}
