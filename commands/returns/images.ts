import { randomUUID } from 'node:crypto';
import { RETURN_LIMITS, refuse } from '@domain/returns/return';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { imageTypeOf } from '../printing/settings';

/**
 * Images attached to returns (spec §3 "Return": image attachments): uploaded first, each a PNG, JPEG or WebP of at
 * most RETURN_LIMITS.imageBytes, then named by the return that takes them (the returns projection gives them to it).
 */

export async function uploadReturnImage(
  deps: { db: Kysely<Database> },
  actor: { tenantId: string; userId: string },
  bytes: unknown,
): Promise<{ id: string; content_type: string; bytes: number }> {
  if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw refuse('IMAGE_INVALID');
  if (bytes.length > RETURN_LIMITS.imageBytes) {
    throw refuse('IMAGE_TOO_LARGE', { max: RETURN_LIMITS.imageBytes / 1024 / 1024 });
  }
  const type = imageTypeOf(bytes);
  if (!type) throw refuse('IMAGE_INVALID');
  const id = randomUUID();
  await deps.db
    .insertInto('return_images')
    .values({
      id,
      tenant_id: actor.tenantId,
      content_type: type,
      byte_size: bytes.length,
      data: bytes,
      uploaded_by: actor.userId,
    })
    .execute();
  return { id, content_type: type, bytes: bytes.length };
}

/** An image of the account's (undefined: another account's, or none). */
export function returnImage(db: Kysely<Database>, tenantId: string, id: string) {
  return db
    .selectFrom('return_images')
    .select(['content_type', 'data'])
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** What the account's images among `ids` are (size and type), for a return's detail. */
export async function returnImagesOf(db: Kysely<Database>, tenantId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('return_images')
    .select(['id', 'content_type', 'byte_size'])
    .where('tenant_id', '=', tenantId)
    .where('id', 'in', [...ids])
    .execute();
}
