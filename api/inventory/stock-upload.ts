import { randomUUID } from 'node:crypto';
import { logActivity } from '@api/activity';
import { Ok, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { ApiError, notFound } from '@api/errors';
import { type Language, type MessageParams, translate } from '@api/i18n';
import { UPLOAD_BODY_LIMIT, UploadQuery, UploadRefusal, uploadBody, uploadedFile } from '@api/sheet-upload';
import {
  ADJUSTMENT_COLUMNS,
  type AdjustmentRow,
  MAX_BYTES,
  MAX_ROWS,
  parseAdjustmentFile,
  type RowError,
} from '@commands/inventory/adjustment-file';
import { StockCode } from '@domain/inventory/codes';
import type { Database, StockUploadStatus } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, sql } from 'kysely';
import { z } from 'zod';
import { ErrorAnswer } from '../answers';
import { IdParams, isUuid } from './common';
import { runStockCommand, type StockDeps, stockSettings, tags } from './stock-common';

/**
 * Bulk stock adjustment by file (spec §5 uploads; the file format is commands/inventory/adjustment-file.ts). The
 * whole file is checked before anything moves: format, then every master code and warehouse code against the
 * tenant's, then — while the tenant refuses negative manual stock — each deduction against the current stock with
 * the file's rows applied in order. Any bad row: 400 with every bad row listed, nothing applied.
 *
 * A good file is applied in the background (202 with an upload id; progress in `stock_uploads`, so any API process
 * can report it). Rows of one stock run in file order; different stocks run side by side, a few at a time. Each row's
 * command id is `upload:<tenant>:<file hash>:<row>`: uploading the same file again moves nothing twice, and an
 * upload interrupted by a restart is finished by uploading the same file again.
 *
 * What cannot be known before applying: another movement taking the stock below zero meanwhile. Such a row is
 * refused when its turn comes, listed in the upload's errors, and the upload ends 'failed' with the other rows
 * applied; uploading the same file again retries only the rows not yet applied.
 */

/** Stocks applied at the same time. */
export const UPLOAD_CONCURRENCY = 8;
const PROGRESS_EVERY_MS = 250;
/** A running upload whose progress has not moved for this long was interrupted (its process stopped). */
export const UPLOAD_STALE_MS = 60_000;

const RowProblem = z.object({ row: z.number().int(), column: z.string().nullable(), message: z.string() });
type RowProblem = z.infer<typeof RowProblem>;

const UploadStarted = z.object({
  upload_id: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
});

const UploadProgress = z.object({
  id: z.string(),
  filename: z.string(),
  status: z.enum(['running', 'done', 'failed']),
  total: z.number().int(),
  applied: z.number().int(),
  replayed: z.number().int(),
  failed: z.number().int(),
  processed: z.number().int(),
  errors: z.array(RowProblem),
  message: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});

/** A row problem kept untranslated (stock_uploads.errors), so each reader gets it in their own language. */
export interface StoredProblem {
  row: number;
  column: string | null;
  key: string;
  params: MessageParams;
}

const parserProblemKeys: Record<RowError['problem'], string> = {
  column_count: 'stock.upload.row.column_count',
  master_code_required: 'stock.upload.row.master_code_required',
  master_code_too_long: 'stock.upload.row.master_code_too_long',
  warehouse_code_required: 'stock.upload.row.warehouse_code_required',
  warehouse_code_too_long: 'stock.upload.row.warehouse_code_too_long',
  mode_invalid: 'stock.upload.row.mode_invalid',
  quantity_invalid: 'stock.upload.row.quantity_invalid',
  reason_too_long: 'stock.upload.row.reason_too_long',
};

const translated = (language: Language, problems: StoredProblem[]): RowProblem[] =>
  problems.map((problem) => ({
    row: problem.row,
    column: problem.column,
    message: translate(language, problem.key, problem.params),
  }));

const columnOrder = (column: string | null) =>
  column === null ? -1 : (ADJUSTMENT_COLUMNS as readonly string[]).indexOf(column);

/** The 400 of a file with bad rows: every bad row, in row then column order. */
function rowsRefusal(request: FastifyRequest, reply: FastifyReply, problems: StoredProblem[]) {
  problems.sort((a, b) => a.row - b.row || columnOrder(a.column) - columnOrder(b.column));
  const rows = translated(request.language, problems);
  const rowCount = new Set(problems.map((problem) => problem.row)).size;
  return reply.code(400).send({
    code: StockCode.uploadRows,
    msg: translate(request.language, 'stock.upload.rows_invalid', { count: rowCount }),
    errors: rows.map((row) => ({
      path: row.column ? `row ${row.row} ${row.column}` : `row ${row.row}`,
      message: row.message,
    })),
    rows,
  });
}

export interface ResolvedRow extends AdjustmentRow {
  masterCodeId: string;
  warehouseId: string;
}

/** Resolves the file's codes to the tenant's master codes and warehouses; anything unknown is a row problem. */
export async function resolveRows(
  db: Kysely<Database>,
  tenantId: string,
  rows: AdjustmentRow[],
): Promise<{ resolved: ResolvedRow[]; problems: StoredProblem[] }> {
  const masterCodes = [...new Set(rows.map((row) => row.masterCode.toLowerCase()))];
  const warehouseCodes = [...new Set(rows.map((row) => row.warehouseCode.toLowerCase()))];
  const [codes, places] = await Promise.all([
    db
      .selectFrom('master_codes')
      .select(['id', 'code', 'type', sql<string>`lower(code)`.as('key')])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`lower(code) = ANY(${masterCodes}::text[])`)
      .execute(),
    db
      .selectFrom('warehouses')
      .select(['id', 'code', sql<string>`lower(code)`.as('key')])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`lower(code) = ANY(${warehouseCodes}::text[])`)
      .execute(),
  ]);
  const codeByKey = new Map(codes.map((row) => [row.key, row]));
  const placeByKey = new Map(places.map((row) => [row.key, row]));
  const resolved: ResolvedRow[] = [];
  const problems: StoredProblem[] = [];
  for (const row of rows) {
    const masterCode = codeByKey.get(row.masterCode.toLowerCase());
    const place = placeByKey.get(row.warehouseCode.toLowerCase());
    let ok = true;
    if (!masterCode) {
      ok = false;
      problems.push({
        row: row.row,
        column: 'master_code',
        key: 'stock.upload.row.master_code_not_found',
        params: { code: row.masterCode },
      });
    } else if (masterCode.type === 'combo') {
      ok = false;
      problems.push({
        row: row.row,
        column: 'master_code',
        key: 'stock.upload.row.combo',
        params: { code: masterCode.code },
      });
    }
    if (!place) {
      ok = false;
      problems.push({
        row: row.row,
        column: 'warehouse_code',
        key: 'stock.upload.row.warehouse_not_found',
        params: { code: row.warehouseCode },
      });
    }
    if (ok && masterCode && place) {
      resolved.push({ ...row, masterCodeId: masterCode.id, warehouseId: place.id });
    }
  }
  return { resolved, problems };
}

const stockKeyOf = (row: ResolvedRow) => `${row.masterCodeId}@${row.warehouseId}`;

/**
 * The deductions that would take on hand below zero, from the projected stock with the file's rows applied in
 * order. The projection may trail the log by a moment; the command refuses such a row again when it runs.
 */
export async function negativeRows(
  db: Kysely<Database>,
  tenantId: string,
  rows: ResolvedRow[],
): Promise<StoredProblem[]> {
  const masterCodeIds = [...new Set(rows.map((row) => row.masterCodeId))];
  const levels = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('stock_levels')
      .select(['master_code_id', 'warehouse_id', 'on_hand'])
      .where('tenant_id', '=', tenantId)
      .where(sql<boolean>`master_code_id = ANY(${masterCodeIds}::text[])`)
      .execute(),
  );
  const onHand = new Map(
    levels.map((level) => [`${level.master_code_id}@${level.warehouse_id}`, Number(level.on_hand)]),
  );
  const problems: StoredProblem[] = [];
  for (const row of rows) {
    const key = stockKeyOf(row);
    const before = onHand.get(key) ?? 0;
    const after =
      row.mode === 'add'
        ? before + row.quantity
        : row.mode === 'deduct'
          ? before - row.quantity
          : row.quantity;
    if (after < 0) {
      problems.push({
        row: row.row,
        column: 'quantity',
        key: 'stock.upload.row.negative_stock',
        params: {
          code: row.masterCode,
          warehouse: row.warehouseCode,
          onHand: before,
          quantity: row.quantity,
          after,
        },
      });
      continue; // refused rows do not move the simulated stock
    }
    onHand.set(key, after);
  }
  return problems;
}

export interface Upload {
  id: string;
  tenantId: string;
  userId: string;
  filename: string;
  hash: string;
  rows: ResolvedRow[];
  refuseNegative: boolean;
}

/** One upload's counters, written to stock_uploads every PROGRESS_EVERY_MS and at the end. */
class Progress {
  applied = 0;
  replayed = 0;
  failed = 0;
  problems: StoredProblem[] = [];
  private written = '';
  constructor(
    private readonly db: Kysely<Database>,
    private readonly id: string,
  ) {}

  async write(end?: { status: StockUploadStatus; problems?: StoredProblem[] }): Promise<void> {
    const state = `${this.applied}/${this.replayed}/${this.failed}`;
    if (!end && state === this.written) {
      // Nothing moved: still say the upload is alive.
      await this.db
        .updateTable('stock_uploads')
        .set({ updated_at: new Date() })
        .where('id', '=', this.id)
        .execute();
      return;
    }
    this.written = state;
    await this.db
      .updateTable('stock_uploads')
      .set({
        applied: this.applied,
        replayed: this.replayed,
        failed: this.failed,
        updated_at: new Date(),
        ...(end
          ? {
              status: end.status,
              finished_at: new Date(),
              errors: JSON.stringify(
                [...this.problems, ...(end.problems ?? [])].sort((a, b) => a.row - b.row),
              ),
            }
          : {}),
      })
      .where('id', '=', this.id)
      .execute();
  }
}

export interface UploadOutcome {
  status: StockUploadStatus;
  applied: number;
  replayed: number;
  failed: number;
}

/**
 * Applies an upload's rows: one queue per stock (file order within it), UPLOAD_CONCURRENCY stocks at a time. A row
 * the domain refuses is recorded and the rest go on. `stopping` ends it early (the app is closing): the upload ends
 * 'failed' as interrupted, and the same file uploaded again finishes it.
 */
export async function applyUpload(
  deps: StockDeps,
  upload: Upload,
  stopping: () => boolean,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<UploadOutcome> {
  const progress = new Progress(deps.db, upload.id);
  const queues = new Map<string, ResolvedRow[]>();
  for (const row of upload.rows) {
    const key = stockKeyOf(row);
    const queue = queues.get(key);
    if (queue) queue.push(row);
    else queues.set(key, [row]);
  }
  const pending = [...queues.values()];
  const source = { type: 'file', id: upload.filename.slice(0, 100) };
  let interrupted = false;
  const worker = async () => {
    for (let queue = pending.shift(); queue; queue = pending.shift()) {
      for (const row of queue) {
        if (stopping()) {
          interrupted = true;
          return;
        }
        try {
          const result = await runStockCommand(
            deps.store,
            {
              type: 'AdjustStock',
              masterCodeId: row.masterCodeId,
              warehouseId: row.warehouseId,
              mode: row.mode,
              quantity: row.quantity,
              refuseNegative: upload.refuseNegative,
              ...(row.reason ? { reason: row.reason } : {}),
              source,
            },
            {
              tenantId: upload.tenantId,
              userId: upload.userId,
              commandId: `upload:${upload.tenantId}:${upload.hash}:${row.row}`,
            },
          );
          if (result.replayed) progress.replayed++;
          else progress.applied++;
        } catch (error) {
          progress.failed++;
          if (error instanceof ApiError) {
            progress.problems.push({ row: row.row, column: null, key: error.key, params: error.params });
          } else {
            log.error({ err: error, upload: upload.id, row: row.row }, 'stock upload row failed');
            progress.problems.push({
              row: row.row,
              column: null,
              key: 'stock.upload.row.failed',
              params: {},
            });
          }
        }
      }
    }
  };
  let writing = Promise.resolve();
  const timer = setInterval(() => {
    writing = writing
      .then(() => progress.write())
      .catch((error: unknown) => log.error({ err: error }, 'upload progress'));
  }, PROGRESS_EVERY_MS);
  try {
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, pending.length) }, worker));
  } finally {
    clearInterval(timer);
    await writing;
  }
  const status: StockUploadStatus = interrupted || progress.failed > 0 ? 'failed' : 'done';
  await progress.write({
    status,
    problems: interrupted ? [{ row: 0, column: null, key: 'stock.upload.interrupted', params: {} }] : [],
  });
  return { status, applied: progress.applied, replayed: progress.replayed, failed: progress.failed };
}

type UploadRow = {
  id: string;
  filename: string;
  status: StockUploadStatus;
  total: number;
  applied: number;
  replayed: number;
  failed: number;
  errors: unknown;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
};

/** A running upload that stopped reporting was interrupted: it reads as failed. */
const isStale = (row: Pick<UploadRow, 'status' | 'updated_at'>, now = Date.now()) =>
  row.status === 'running' && now - row.updated_at.getTime() > UPLOAD_STALE_MS;

function progressOf(language: Language, row: UploadRow): z.infer<typeof UploadProgress> {
  const stored = (Array.isArray(row.errors) ? row.errors : []) as StoredProblem[];
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
    errors: translated(
      language,
      stored.filter((problem) => problem.row !== 0),
    ),
    message: whole.length > 0 || stale ? translate(language, 'stock.upload.interrupted') : null,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

const fileProblemKeys = {
  too_large: 'stock.upload.file.too_large',
  type: 'stock.upload.file.type',
  bom: 'stock.upload.file.bom',
  encoding: 'stock.upload.file.encoding',
  empty: 'stock.upload.file.empty',
  too_many_rows: 'stock.upload.file.too_many_rows',
  unreadable: 'stock.upload.file.unreadable',
} as const;

const access = { access: { permission: 'inventory-stock-adjustment' } } as const;

export const stockUploadRoutes: FastifyPluginAsyncZod<StockDeps> = async (app, deps) => {
  const { db } = deps;
  uploadBody(app);

  const running = new Set<Promise<void>>();
  let closing = false;
  app.addHook('onClose', async () => {
    closing = true;
    await Promise.allSettled([...running]);
  });

  app.post(
    '/api/inventory/stock/upload',
    {
      config: access,
      bodyLimit: UPLOAD_BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Bulk stock adjustment: the CSV or XLSX file as the body (?filename=). Any bad row: 400 with every bad row, nothing applied; else 202 and the rows are applied in the background',
        querystring: UploadQuery,
        response: {
          202: Ok(UploadStarted),
          400: UploadRefusal,
          401: ErrorAnswer,
          403: ErrorAnswer,
          413: ErrorAnswer,
          415: ErrorAnswer,
        },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const { tenantId } = session;
      const { bytes: body, filename } = uploadedFile(
        request.body,
        request.headers['content-type'],
        request.query.filename,
        () => new ApiError(415, StockCode.mediaType, 'stock.upload.media_type'),
      );

      const parsed = await parseAdjustmentFile(body, filename);
      if (!parsed.ok) {
        if (parsed.file) {
          throw new ApiError(400, StockCode.uploadFile, fileProblemKeys[parsed.file], {
            max: parsed.file === 'too_many_rows' ? MAX_ROWS : MAX_BYTES / 1024 / 1024,
          });
        }
        return rowsRefusal(
          request,
          reply,
          parsed.rows.map((problem) => ({
            row: problem.row,
            column: problem.column ?? null,
            key: parserProblemKeys[problem.problem],
            params: { row: problem.row, columns: ADJUSTMENT_COLUMNS.join(', ') },
          })),
        );
      }

      const { resolved, problems } = await resolveRows(db, tenantId, parsed.rows);
      if (problems.length > 0) return rowsRefusal(request, reply, problems);

      const earlier = await db
        .selectFrom('stock_uploads')
        .select(['id', 'status', 'total', 'updated_at'])
        .where('tenant_id', '=', tenantId)
        .where('file_hash', '=', parsed.hash)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst();
      // The same file still being applied: its upload is this one.
      if (earlier && earlier.status === 'running' && !isStale(earlier)) {
        return reply
          .code(202)
          .send(
            ok(
              request,
              { upload_id: earlier.id, status: 'running', total: earlier.total },
              'stock.upload.running',
            ),
          );
      }
      const settings = await stockSettings(db, tenantId);
      // A file uploaded before may already have moved its rows: those replay and cannot be refused again.
      if (settings.refuse_negative_manual && !earlier) {
        const negative = await negativeRows(db, tenantId, resolved);
        if (negative.length > 0) return rowsRefusal(request, reply, negative);
      }

      const id = randomUUID();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('stock_uploads')
          .values({
            id,
            tenant_id: tenantId,
            user_id: session.userId,
            filename,
            file_hash: parsed.hash,
            status: 'running',
            total: resolved.length,
          })
          .execute();
        await logActivity(trx, {
          tenantId,
          userId: session.userId,
          action: 'stock.upload_started',
          subjectType: 'stock_upload',
          subjectId: id,
          detail: { filename, file_hash: parsed.hash, rows: resolved.length },
        });
      });
      const task = applyUpload(
        deps,
        {
          id,
          tenantId,
          userId: session.userId,
          filename,
          hash: parsed.hash,
          rows: resolved,
          refuseNegative: settings.refuse_negative_manual,
        },
        () => closing,
        request.log,
      )
        .then(() => undefined)
        .catch((error: unknown) => request.log.error({ err: error, upload: id }, 'stock upload failed'))
        .finally(() => running.delete(task));
      running.add(task);
      return reply.code(202).send(
        ok(request, { upload_id: id, status: 'running', total: resolved.length }, 'stock.upload.started', {
          total: resolved.length,
        }),
      );
    },
  );

  app.get(
    '/api/inventory/stock/upload/:id',
    {
      config: access,
      schema: {
        tags,
        summary: "A bulk upload's progress: running, done or failed, with counts and the rows refused",
        params: IdParams,
        response: {
          200: Ok(UploadProgress),
          400: ErrorAnswer,
          401: ErrorAnswer,
          403: ErrorAnswer,
          404: ErrorAnswer,
        },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const { id } = request.params;
      const row = isUuid(id)
        ? await db
            .selectFrom('stock_uploads')
            .select([
              'id',
              'filename',
              'status',
              'total',
              'applied',
              'replayed',
              'failed',
              'errors',
              'created_at',
              'updated_at',
              'finished_at',
            ])
            .where('tenant_id', '=', tenantId)
            .where('id', '=', id.toLowerCase())
            .executeTakeFirst()
        : undefined;
      if (!row) throw notFound();
      return ok(request, progressOf(request.language, row));
    },
  );
};
