import { StockCode } from '@domain/inventory/codes';
import { decide, evolve, initialState, type StockEvent, type StockState } from '@domain/inventory/stock';
import { type RowProblem, stockFileErrors } from '@domain/inventory/stock-upload';
import { refusalOf, refuser } from '@domain/shared/errors';
import type { Database, UploadStatus } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type Language, translate } from '@infra/i18n';
import { fileProblemParams } from '@infra/sheets/read';
import { stockSettings } from '@projections/inventory/stock-settings';
import { interruptedKey, isUnderway, latestUploadOf, rowMessages } from '@projections/sheet-uploads.queries';
import { stockLevelsOf } from '@projections/stock';
import { type Kysely, sql } from 'kysely';
import { logActivity } from '../support/activity';
import type { Actor } from '../support/actor';
import { openUpload, recordRefusedUpload, type SentFile, UploadProgress } from '../support/sheet-uploads';
import {
  ADJUSTMENT_COLUMNS,
  type AdjustmentRow,
  type CodedRow,
  MAX_ROWS,
  parseAdjustmentFile,
  type RowError,
} from './adjustment-file';
import { moveStock } from './move-stock';

/**
 * Bulk stock adjustment by file (spec §5 uploads; the file format is ./adjustment-file.ts). The whole file is checked
 * before anything moves: the format of every row and the master code and warehouse code of every well-formed one
 * against the tenant's, all answered together, then — while the
 * tenant refuses negative manual stock — each row decided by the stock's own `decide` against the current stock
 * with the file's earlier rows applied. Any bad row: nothing applied, every bad row listed.
 *
 * Every file sent is kept in the upload history (commands/support/sheet-uploads.ts): a refused one as failed with its
 * bad rows, a good one pending, then in progress while it is applied in the background, then complete. Rows of
 * one stock run in file order; different stocks run side by side, a few at a time. Each row's command id is
 * `upload:<tenant>:<file hash>:<row>`: uploading the same file again moves nothing twice, and an upload interrupted
 * by a restart is finished by uploading the same file again.
 *
 * What cannot be known before applying: another movement taking the stock below zero meanwhile. Such a row is
 * refused when its turn comes, listed in the upload's errors, and the upload ends 'failed' with the other rows
 * applied; uploading the same file again retries only the rows not yet applied.
 */

/** Stocks applied at the same time. */
export const UPLOAD_CONCURRENCY = 8;
/** How often the counters (and that the upload is alive) are written: well inside the history's stale limit. */
const PROGRESS_EVERY_MS = 250;

export interface StockUploadDeps {
  db: Kysely<Database>;
  store: EventStore;
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

const columnOrder = (column: string | null) =>
  column === null ? -1 : (ADJUSTMENT_COLUMNS as readonly string[]).indexOf(column);

/** Every bad row, in row then column order. */
const inFileOrder = (problems: RowProblem[]) =>
  problems.sort((a, b) => a.row - b.row || columnOrder(a.column) - columnOrder(b.column));

export interface ResolvedRow extends AdjustmentRow {
  masterCodeId: string;
  warehouseId: string;
}

/**
 * Resolves the file's codes to the tenant's master codes and warehouses; anything unknown is a row problem. The code
 * cells of `malformed` rows (refused for other reasons; '' where the cell itself is bad) are checked as well.
 */
export async function resolveRows(
  db: Kysely<Database>,
  tenantId: string,
  rows: AdjustmentRow[],
  malformed: CodedRow[] = [],
): Promise<{ resolved: ResolvedRow[]; problems: RowProblem[] }> {
  const all: CodedRow[] = [...rows, ...malformed];
  const masterCodes = [...new Set(all.map((row) => row.masterCode.toLowerCase()))];
  const warehouseCodes = [...new Set(all.map((row) => row.warehouseCode.toLowerCase()))];
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
  const problems: RowProblem[] = [];
  const wellFormed = new Set<CodedRow>(rows);
  for (const row of all) {
    const masterCode = codeByKey.get(row.masterCode.toLowerCase());
    const place = placeByKey.get(row.warehouseCode.toLowerCase());
    let ok = wellFormed.has(row);
    if (!masterCode && row.masterCode !== '') {
      ok = false;
      problems.push({
        row: row.row,
        column: 'master_code',
        key: 'stock.upload.row.master_code_not_found',
        params: { code: row.masterCode },
      });
    } else if (masterCode?.type === 'combo') {
      ok = false;
      problems.push({
        row: row.row,
        column: 'master_code',
        key: 'stock.upload.row.combo',
        params: { code: masterCode.code },
      });
    }
    if (!place && row.warehouseCode !== '') {
      ok = false;
      problems.push({
        row: row.row,
        column: 'warehouse_code',
        key: 'stock.upload.row.warehouse_not_found',
        params: { code: row.warehouseCode },
      });
    }
    if (ok && masterCode && place) {
      resolved.push({ ...(row as AdjustmentRow), masterCodeId: masterCode.id, warehouseId: place.id });
    }
  }
  return { resolved, problems };
}

const stockKeyOf = (row: ResolvedRow) => `${row.masterCodeId}@${row.warehouseId}`;

/**
 * The rows the stock would refuse for going below zero, decided in file order on the projected stock with the
 * file's earlier rows applied. The projection may trail the log by a moment; the command refuses such a row again
 * when it runs.
 */
export async function negativeRows(
  db: Kysely<Database>,
  tenantId: string,
  rows: ResolvedRow[],
): Promise<RowProblem[]> {
  const levels = await stockLevelsOf(db, tenantId, [...new Set(rows.map((row) => row.masterCodeId))]);
  const stock = new Map<string, StockState>(
    levels.map((level) => [`${level.masterCodeId}@${level.warehouseId}`, level]),
  );
  const problems: RowProblem[] = [];
  for (const row of rows) {
    const key = stockKeyOf(row);
    const before = stock.get(key) ?? initialState;
    try {
      const events: StockEvent[] = decide(
        {
          type: 'AdjustStock',
          masterCodeId: row.masterCodeId,
          warehouseId: row.warehouseId,
          mode: row.mode,
          quantity: row.quantity,
          refuseNegative: true,
        },
        before,
      );
      stock.set(key, events.reduce(evolve, before));
    } catch (error) {
      const refused = refusalOf(error, 'NEGATIVE_STOCK');
      if (!refused) throw error;
      const { onHand, change } = refused.params as { onHand: number; change: number };
      // Refused rows do not move the simulated stock.
      problems.push({
        row: row.row,
        column: 'quantity',
        key: 'stock.upload.row.negative_stock',
        params: {
          code: row.masterCode,
          warehouse: row.warehouseCode,
          onHand,
          quantity: row.quantity,
          after: onHand + change,
        },
      });
    }
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

export interface UploadOutcome {
  status: UploadStatus;
  applied: number;
  replayed: number;
  failed: number;
}

export interface UploadLog {
  error(detail: object, message: string): void;
}

/**
 * Applies an upload's rows: one queue per stock (file order within it), UPLOAD_CONCURRENCY stocks at a time. A row
 * the domain refuses is recorded and the rest go on. `stopping` ends it early (the app is closing): the upload ends
 * 'failed' as interrupted, and the same file uploaded again finishes it.
 */
export async function applyUpload(
  deps: StockUploadDeps,
  upload: Upload,
  stopping: () => boolean,
  log: UploadLog,
): Promise<UploadOutcome> {
  const progress = new UploadProgress(deps.db, upload.id);
  await progress.start();
  const queues = new Map<string, ResolvedRow[]>();
  for (const row of upload.rows) {
    const key = stockKeyOf(row);
    const queue = queues.get(key);
    if (queue) queue.push(row);
    else queues.set(key, [row]);
  }
  const pending = [...queues.values()];
  const source = { type: 'file', id: upload.filename.slice(0, 100) };
  const actor = { tenantId: upload.tenantId, userId: upload.userId };
  let interrupted = false;
  const worker = async () => {
    for (let queue = pending.shift(); queue; queue = pending.shift()) {
      for (const row of queue) {
        if (stopping()) {
          interrupted = true;
          return;
        }
        try {
          const result = await moveStock({ store: deps.store }, actor, {
            command: {
              type: 'AdjustStock',
              masterCodeId: row.masterCodeId,
              warehouseId: row.warehouseId,
              mode: row.mode,
              quantity: row.quantity,
              refuseNegative: upload.refuseNegative,
              ...(row.reason ? { reason: row.reason } : {}),
              source,
            },
            commandId: `upload:${upload.tenantId}:${upload.hash}:${row.row}`,
          });
          if (result.replayed) progress.replayed++;
          else progress.applied++;
        } catch (error) {
          progress.failed++;
          const refused = refusalOf(error);
          if (refused) {
            progress.problems.push({
              row: row.row,
              column: null,
              key: refused.refusal.key,
              params: refused.params,
            });
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
  const status: UploadStatus = interrupted || progress.failed > 0 ? 'failed' : 'complete';
  await progress.write({
    status,
    problems: interrupted ? [{ row: 0, column: null, key: interruptedKey.stock_adjustment, params: {} }] : [],
  });
  return { status, applied: progress.applied, replayed: progress.replayed, failed: progress.failed };
}

// ---- the use case ----

export interface UploadStockFileDeps extends StockUploadDeps {
  log: UploadLog;
  /** True once the app is closing: a running upload stops between rows. */
  stopping: () => boolean;
  /** Keeps the background application of a file, so that closing the app waits for it. */
  background: (task: Promise<void>) => void;
}

export type UploadStockFileResult =
  | { outcome: 'rows_refused'; problems: RowProblem[] }
  | { outcome: 'running' | 'started'; uploadId: string; status: UploadStatus; total: number };

const refuseFile = refuser(stockFileErrors);

/**
 * Checks a bulk adjustment file whole, then applies it in the background. A file that cannot be read is refused
 * (a refusal of stockFileErrors); a file with bad rows answers every bad row with all its reasons (format and
 * unknown codes together) and applies nothing; the same file still being applied answers that upload. Each refused
 * file is kept in the history as failed, with the same reasons.
 */
export async function uploadStockFile(
  deps: UploadStockFileDeps,
  actor: Required<Actor>,
  input: { bytes: Buffer; filename: string },
): Promise<UploadStockFileResult> {
  const { db } = deps;
  const { tenantId } = actor;
  const sent: SentFile = { kind: 'stock_adjustment', tenantId, userId: actor.userId, ...input };
  const parsed = await parseAdjustmentFile(input.bytes, input.filename);
  if (!parsed.ok) {
    const params = fileProblemParams(parsed.file, MAX_ROWS);
    await recordRefusedUpload(db, sent, {
      total: 0,
      whole: { key: stockFileErrors[parsed.file].key, params },
    });
    throw refuseFile(parsed.file, params);
  }
  const refused = async (problems: RowProblem[]) => {
    const total = new Set([...parsed.rows.map((row) => row.row), ...problems.map((problem) => problem.row)])
      .size;
    const count = new Set(problems.map((problem) => problem.row)).size;
    await recordRefusedUpload(db, sent, {
      total,
      whole: { key: 'stock.upload.rows_invalid', params: { count } },
      rows: problems,
    });
    return { outcome: 'rows_refused' as const, problems };
  };
  // Every reason of every row in one answer: the format, then the codes of the well-formed rows.
  const formatProblems: RowProblem[] = parsed.problems.map((problem) => ({
    row: problem.row,
    column: problem.column ?? null,
    key: parserProblemKeys[problem.problem],
    params: { row: problem.row, columns: ADJUSTMENT_COLUMNS.join(', ') },
  }));
  const { resolved, problems } = await resolveRows(db, tenantId, parsed.rows, parsed.malformed);
  if (formatProblems.length + problems.length > 0) {
    return refused(inFileOrder([...formatProblems, ...problems]));
  }

  const earlier = await latestUploadOf(db, tenantId, 'stock_adjustment', parsed.hash);
  // The same file still being applied: its upload is this one.
  if (earlier && isUnderway(earlier)) {
    return { outcome: 'running', uploadId: earlier.id, status: earlier.status, total: earlier.total };
  }
  const settings = await stockSettings(db, tenantId);
  // A file uploaded before may already have moved its rows: those replay and cannot be refused again.
  if (settings.refuse_negative_manual && !earlier) {
    const negative = await negativeRows(db, tenantId, resolved);
    if (negative.length > 0) return refused(inFileOrder(negative));
  }

  const id = await db.transaction().execute(async (trx) => {
    const opened = await openUpload(trx, sent, resolved.length);
    await logActivity(trx, {
      tenantId,
      userId: actor.userId,
      action: 'stock.upload_started',
      subjectType: 'stock_upload',
      subjectId: opened,
      detail: { filename: input.filename, file_hash: parsed.hash, rows: resolved.length },
    });
    return opened;
  });
  deps.background(
    applyUpload(
      deps,
      {
        id,
        tenantId,
        userId: actor.userId,
        filename: input.filename,
        hash: parsed.hash,
        rows: resolved,
        refuseNegative: settings.refuse_negative_manual,
      },
      deps.stopping,
      deps.log,
    )
      .then(() => undefined)
      .catch((error: unknown) => deps.log.error({ err: error, upload: id }, 'stock upload failed')),
  );
  return { outcome: 'started', uploadId: id, status: 'pending', total: resolved.length };
}

/** The 400 answer of a file with bad rows: every bad row, in the caller's language, by path and by row. */
export function rowsRefusedAnswer(language: Language, problems: RowProblem[]) {
  const rows = rowMessages(language, problems);
  return {
    code: StockCode.uploadRows,
    msg: translate(language, 'stock.upload.rows_invalid', {
      count: new Set(problems.map((problem) => problem.row)).size,
    }),
    errors: rows.map((row) => ({
      path: row.column ? `row ${row.row} ${row.column}` : `row ${row.row}`,
      message: row.message,
    })),
    rows,
  };
}

/** The files being applied in the background: closing waits for them, and a running one stops between rows. */
export function backgroundUploads() {
  const running = new Set<Promise<void>>();
  let closing = false;
  return {
    stopping: () => closing,
    background: (task: Promise<void>) => {
      const tracked = task.finally(() => running.delete(tracked));
      running.add(tracked);
    },
    close: async () => {
      closing = true;
      await Promise.allSettled([...running]);
    },
  };
}
