import type {
  UploadDetail,
  UploadListQuery,
  UploadStatus,
  UploadSummary,
} from '@api/contracts/sheet-uploads';
import type { RowProblem } from '@domain/inventory/stock-upload';
import { isUuid } from '@domain/platform/ids';
import type { Database, UploadKind } from '@infra/db';
import { type Language, translate } from '@infra/i18n';
import { allOf, dateWhere, pageWindow, sortTerms, textWhere } from '@projections/runtime/grid';
import { type Kysely, type RawBuilder, type Selectable, type SqlBool, sql } from 'kysely';

/**
 * The upload history (a plain table: commands/support/sheet-uploads.ts writes each bulk upload as it is checked and
 * applied, so that any API process can report it): the lists, an upload's detail in the reader's language, its file.
 */

export type SheetUploadRow = Selectable<Database['sheet_uploads']>;

/** A pending or in-progress upload whose progress has not moved for this long was interrupted (its process stopped). */
export const UPLOAD_STALE_MS = 60_000;

/** What a reader is told of an upload that stopped: each kind says how to finish it. */
export const interruptedKey: Record<UploadKind, string> = {
  stock_adjustment: 'stock.upload.interrupted',
  purchase: 'purchases.upload.interrupted',
  order: 'orders.upload.interrupted',
  listing: 'listing.upload.interrupted',
};

const unfinished = (status: UploadStatus) => status === 'pending' || status === 'in_progress';

/** An unfinished upload that stopped reporting was interrupted: it reads as failed, never in progress forever. */
export const isStale = (row: Pick<SheetUploadRow, 'status' | 'updated_at'>, now = Date.now()) =>
  unfinished(row.status) && now - row.updated_at.getTime() > UPLOAD_STALE_MS;

/** Still being applied: unfinished and reporting. */
export const isUnderway = (row: Pick<SheetUploadRow, 'status' | 'updated_at'>) =>
  unfinished(row.status) && !isStale(row);

/** The status a reader sees, in SQL (the list filters and sorts by it). */
const shownStatus = sql<UploadStatus>`CASE WHEN s.status IN ('pending', 'in_progress')
  AND s.updated_at < now() - make_interval(secs => ${UPLOAD_STALE_MS / 1000}) THEN 'failed' ELSE s.status END`;

/**
 * The latest accepted upload of the same file (by its hash): one that went on to be applied, so its rows may have
 * moved. A file refused whole moved nothing and is left out.
 */
export const latestUploadOf = (db: Kysely<Database>, tenantId: string, kind: UploadKind, fileHash: string) =>
  db
    .selectFrom('sheet_uploads')
    .select(['id', 'status', 'total', 'updated_at'])
    .where('tenant_id', '=', tenantId)
    .where('file_hash', '=', fileHash)
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('status', '<>', 'failed'), eb('started_at', 'is not', null)]))
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

const userName = sql<string>`coalesce(u.first_name || ' ' || u.last_name, '')`;
const userText = sql<string>`coalesce(u.first_name || ' ' || u.last_name || ' ' || u.email, '')`;

const summaryColumns = [
  's.id',
  's.filename',
  's.user_id',
  's.total',
  's.applied',
  's.replayed',
  's.failed',
  's.created_at',
  's.finished_at',
  'u.email',
  userName.as('name'),
  shownStatus.as('shown'),
] as const;

const uploads = (db: Kysely<Database>, tenantId: string, kind: UploadKind) =>
  db
    .selectFrom('sheet_uploads as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .where('s.tenant_id', '=', tenantId)
    .where('s.kind', '=', kind);

type SummaryRow = Pick<
  SheetUploadRow,
  'id' | 'filename' | 'user_id' | 'total' | 'applied' | 'replayed' | 'failed' | 'created_at' | 'finished_at'
> & { email: string | null; name: string; shown: UploadStatus };

const summaryOf = (row: SummaryRow): UploadSummary => ({
  id: row.id,
  filename: row.filename,
  user: row.email !== null ? { id: row.user_id, name: row.name.trim(), email: row.email } : null,
  status: row.shown,
  total: row.total,
  applied: row.applied,
  replayed: row.replayed,
  failed: row.failed,
  processed: row.applied + row.replayed + row.failed,
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

/** One kind's uploads for ag-grid: newest first unless a sort is asked, by status, date, file name and uploader. */
export async function listUploads(
  db: Kysely<Database>,
  tenantId: string,
  kind: UploadKind,
  query: UploadListQuery,
): Promise<{ rows: UploadSummary[]; lastRow: number }> {
  const where: RawBuilder<SqlBool>[] = [];
  const { filterModel } = query;
  if (query.status) where.push(sql<SqlBool>`${shownStatus} = ${query.status}`);
  if (filterModel.created_at) where.push(dateWhere(sql<Date>`s.created_at`, filterModel.created_at));
  if (filterModel.filename) where.push(textWhere(sql<string>`s.filename`, filterModel.filename));
  if (filterModel.user) where.push(textWhere(userText, filterModel.user));
  const filtered = uploads(db, tenantId, kind).where(allOf(where));
  const order = [
    ...sortTerms(query.sortModel, {
      created_at: sql`s.created_at`,
      filename: sql`lower(s.filename)`,
      status: shownStatus,
      user: sql`lower(${userName})`,
    }),
    sql`s.created_at DESC`,
    sql`s.id DESC`,
  ];
  const { limit, offset } = pageWindow(query);
  const [rows, count] = await Promise.all([
    filtered
      .select([...summaryColumns])
      .orderBy(sql.join(order))
      .limit(limit)
      .offset(offset)
      .execute(),
    filtered.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(summaryOf), lastRow: Number(count.n) };
}

/** One upload with every refused row, in the reader's language; undefined when the tenant has none of that kind. */
export async function uploadDetail(
  db: Kysely<Database>,
  tenantId: string,
  kind: UploadKind,
  id: string,
  language: Language,
): Promise<UploadDetail | undefined> {
  if (!isUuid(id)) return undefined;
  const row = await uploads(db, tenantId, kind)
    .where('s.id', '=', id.toLowerCase())
    .select([
      ...summaryColumns,
      's.errors',
      's.started_at',
      sql<boolean>`s.content IS NOT NULL`.as('has_file'),
      's.status',
      's.updated_at',
    ])
    .executeTakeFirst();
  if (!row) return undefined;
  const stored = (Array.isArray(row.errors) ? row.errors : []) as unknown as RowProblem[];
  // Row 0 is the upload as a whole: the file unreadable, its bad rows counted, or the upload stopped.
  const whole = rowMessages(
    language,
    stored.filter((problem) => problem.row === 0),
  ).map((problem) => problem.message);
  if (isStale(row)) whole.push(translate(language, interruptedKey[kind]));
  return {
    ...summaryOf(row),
    started_at: row.started_at?.toISOString() ?? null,
    errors: rowMessages(
      language,
      stored.filter((problem) => problem.row !== 0),
    ),
    message: whole.length > 0 ? whole.join(' ') : null,
    has_file: row.has_file,
  };
}

/** The file of an upload as it was sent; undefined when there is no such upload or it kept no file. */
export async function uploadedFileOf(db: Kysely<Database>, tenantId: string, kind: UploadKind, id: string) {
  if (!isUuid(id)) return undefined;
  const row = await db
    .selectFrom('sheet_uploads')
    .select(['filename', 'content'])
    .where('tenant_id', '=', tenantId)
    .where('kind', '=', kind)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  return row?.content ? { filename: row.filename, content: row.content } : undefined;
}
