import { randomUUID } from 'node:crypto';
import type { RowProblem } from '@domain/inventory/stock-upload';
import { refusalOf } from '@domain/shared/errors';
import type { Database, UploadKind, UploadStatus } from '@infra/db';
import { type FileProblem, fileHash, fileProblemParams } from '@infra/sheets/read';
import type { Kysely } from 'kysely';

/**
 * The upload history's writes (projections/sheet-uploads.queries.ts reads it): every bulk file sent is recorded with
 * its bytes — refused whole (failed, nothing applied, every bad row kept), or accepted (pending), then in progress
 * while its rows are applied, then complete or failed. The counters and the heartbeat are written as the rows go, so
 * an upload whose process stopped shows as interrupted rather than in progress forever.
 */

export interface SentFile {
  kind: UploadKind;
  tenantId: string;
  userId: string;
  filename: string;
  bytes: Buffer;
}

const recordOf = (file: SentFile, status: UploadStatus, total: number) => ({
  id: randomUUID(),
  kind: file.kind,
  tenant_id: file.tenantId,
  user_id: file.userId,
  filename: file.filename,
  file_hash: fileHash(file.bytes),
  content: file.bytes,
  status,
  total,
});

/**
 * A file refused whole: failed at once, with why (`whole`: the file unreadable, or its bad rows counted) and every
 * bad row. Its id.
 */
export async function recordRefusedUpload(
  db: Kysely<Database>,
  file: SentFile,
  refused: { total: number; whole: Omit<RowProblem, 'row' | 'column'>; rows?: RowProblem[] },
): Promise<string> {
  const rows = refused.rows ?? [];
  const record = recordOf(file, 'failed', refused.total);
  await db
    .insertInto('sheet_uploads')
    .values({
      ...record,
      failed: new Set(rows.map((problem) => problem.row)).size,
      errors: JSON.stringify([{ row: 0, column: null, ...refused.whole }, ...rows]),
      finished_at: new Date(),
    })
    .execute();
  return record.id;
}

/** A file that cannot be read, refused whole with `<area>.upload.file.<problem>`. Its id. */
export function recordUnreadableFile(
  db: Kysely<Database>,
  file: SentFile,
  unreadable: { problem: FileProblem; area: string; maxRows: number },
): Promise<string> {
  return recordRefusedUpload(db, file, {
    total: 0,
    whole: {
      key: `${unreadable.area}.upload.file.${unreadable.problem}`,
      params: fileProblemParams(unreadable.problem, unreadable.maxRows),
    },
  });
}

/**
 * A file refused for its bad rows: its data rows (`rows`, good and bad alike) counted, `key` saying how many rows are
 * bad, every problem kept. Its id.
 */
export function recordBadRows(
  db: Kysely<Database>,
  file: SentFile,
  refused: { rows: readonly number[]; problems: RowProblem[]; key: string },
): Promise<string> {
  const bad = refused.problems.map((problem) => problem.row);
  return recordRefusedUpload(db, file, {
    total: new Set([...refused.rows, ...bad]).size,
    whole: { key: refused.key, params: { count: new Set(bad).size } },
    rows: refused.problems,
  });
}

/** A file accepted with `total` rows to apply: pending until they start. Its id. */
export async function openUpload(db: Kysely<Database>, file: SentFile, total: number): Promise<string> {
  const record = recordOf(file, 'pending', total);
  await db.insertInto('sheet_uploads').values(record).execute();
  return record.id;
}

/** An upload's counters as its rows are applied; `write()` records them (and that the upload is alive). */
export class UploadProgress {
  applied = 0;
  replayed = 0;
  failed = 0;
  problems: RowProblem[] = [];
  private written = '';
  constructor(
    private readonly db: Kysely<Database>,
    readonly id: string,
  ) {}

  /** Its rows start being applied. */
  async start(): Promise<void> {
    const now = new Date();
    await this.db
      .updateTable('sheet_uploads')
      .set({ status: 'in_progress', started_at: now, updated_at: now })
      .where('id', '=', this.id)
      .execute();
  }

  /** The counters so far; with `end`, the final status and the problems of the upload as a whole (row 0). */
  async write(end?: { status: UploadStatus; problems?: RowProblem[] }): Promise<void> {
    const state = `${this.applied}/${this.replayed}/${this.failed}`;
    if (!end && state === this.written) {
      // Nothing moved: still say the upload is alive.
      await this.db
        .updateTable('sheet_uploads')
        .set({ updated_at: new Date() })
        .where('id', '=', this.id)
        .execute();
      return;
    }
    this.written = state;
    await this.db
      .updateTable('sheet_uploads')
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

  /**
   * Applying one part of the file (`rows` rows from `row`) threw: the upload ends failed, with the refusal on that
   * row (when it is one) and `interrupted` (which says how to finish it) on the whole.
   */
  async fail(error: unknown, part: { row: number; rows: number }, interrupted: string): Promise<void> {
    const refused = refusalOf(error);
    if (refused) this.failed += part.rows;
    await this.write({
      status: 'failed',
      problems: [
        ...(refused
          ? [{ row: part.row, column: null, key: refused.refusal.key, params: refused.params }]
          : []),
        { row: 0, column: null, key: interrupted, params: {} },
      ],
    });
  }
}
