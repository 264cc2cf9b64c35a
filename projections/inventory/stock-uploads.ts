import type { StockUploadProgress } from '@api/contracts/inventory-stock';
import type { RowProblem } from '@domain/inventory/stock-upload';
import { isUuid } from '@domain/platform/ids';
import type { Database } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
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

/** Row problems in the reader's language. */
export const rowMessages = (language: Language, problems: RowProblem[]) =>
  problems.map((problem) => ({
    row: problem.row,
    column: problem.column,
    message: translate(language, problem.key, problem.params),
  }));

/** An upload's progress in the reader's language; undefined when the tenant has none with that id. */
export async function uploadProgress(
  db: Kysely<Database>,
  tenantId: string,
  id: string,
  language: Language,
): Promise<StockUploadProgress | undefined> {
  const row = isUuid(id) ? await stockUpload(db, tenantId, id) : undefined;
  if (!row) return undefined;
  const stored = (Array.isArray(row.errors) ? row.errors : []) as unknown as RowProblem[];
  const whole = stored.filter((problem) => problem.row === 0);
  const stale = isStale(row);
  return {
    id: row.id,
    filename: row.filename,
    status: stale ? 'failed' : row.status,
    total: row.total,
    applied: row.applied,
    replayed: row.replayed,
    failed: row.failed,
    processed: row.applied + row.replayed + row.failed,
    errors: rowMessages(
      language,
      stored.filter((problem) => problem.row !== 0),
    ),
    message: whole.length > 0 || stale ? translate(language, 'stock.upload.interrupted') : null,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
