import type { Database } from '@infra/db';
import type { Kysely, Selectable } from 'kysely';

/**
 * The bulk stock uploads (a plain table: commands/inventory/stock-upload.ts writes it as the rows are applied, so
 * that any API process can report an upload's progress).
 */

export type StockUploadRow = Selectable<Database['stock_uploads']>;

/** A running upload whose progress has not moved for this long was interrupted (its process stopped). */
export const UPLOAD_STALE_MS = 60_000;

/** A running upload that stopped reporting was interrupted: it reads as failed. */
export const isStale = (row: Pick<StockUploadRow, 'status' | 'updated_at'>, now = Date.now()) =>
  row.status === 'running' && now - row.updated_at.getTime() > UPLOAD_STALE_MS;

/** One upload of the tenant; undefined when there is none with that id. */
export const stockUpload = (db: Kysely<Database>, tenantId: string, id: string) =>
  db
    .selectFrom('stock_uploads')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();

/** The latest upload of the same file (by its hash). */
export const latestUploadOf = (db: Kysely<Database>, tenantId: string, fileHash: string) =>
  db
    .selectFrom('stock_uploads')
    .select(['id', 'status', 'total', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .where('file_hash', '=', fileHash)
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
