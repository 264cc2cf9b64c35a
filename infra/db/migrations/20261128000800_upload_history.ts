import { type Kysely, sql } from 'kysely';

// The upload history (issue 14; domains.md §2 Purchases "upload history", the stock adjustment upload): the table that
// counted a bulk stock file's progress becomes the record of every bulk upload, stock adjustments and purchases alike
// (commands/support/sheet-uploads.ts). Each row keeps who sent which file (its bytes too, to download it again), the
// spec's statuses pending → in_progress → complete, or failed (the file refused whole, rows refused while applying,
// or the process stopped), and every row refused with its reason. The renamed table keeps its FORCEd row-level
// security and grants (20261127000900_tenancy_roles.ts); the old statuses are renamed in place.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE stock_uploads RENAME TO sheet_uploads`.execute(db);
  await sql`ALTER INDEX stock_uploads_file_idx RENAME TO sheet_uploads_file_idx`.execute(db);
  await sql`ALTER TABLE sheet_uploads DROP CONSTRAINT stock_uploads_status_check`.execute(db);
  await sql`
    UPDATE sheet_uploads
    SET status = CASE status WHEN 'running' THEN 'in_progress' WHEN 'done' THEN 'complete' ELSE status END`.execute(
    db,
  );
  await sql`
    ALTER TABLE sheet_uploads ADD CONSTRAINT sheet_uploads_status_check
      CHECK (status IN ('pending', 'in_progress', 'complete', 'failed'))`.execute(db);
  await sql`
    ALTER TABLE sheet_uploads
      ADD COLUMN kind text NOT NULL DEFAULT 'stock_adjustment' CHECK (kind IN ('stock_adjustment', 'purchase')),
      ADD COLUMN content bytea,
      ADD COLUMN started_at timestamptz`.execute(db);
  // Every row has its kind from now on: the writer names it.
  await sql`ALTER TABLE sheet_uploads ALTER COLUMN kind DROP DEFAULT`.execute(db);
  // The history lists: one kind of one tenant, newest first.
  await sql`CREATE INDEX sheet_uploads_history_idx ON sheet_uploads (tenant_id, kind, created_at DESC)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX sheet_uploads_history_idx`.execute(db);
  await sql`DELETE FROM sheet_uploads WHERE kind <> 'stock_adjustment'`.execute(db);
  await sql`ALTER TABLE sheet_uploads DROP COLUMN kind, DROP COLUMN content, DROP COLUMN started_at`.execute(
    db,
  );
  await sql`ALTER TABLE sheet_uploads DROP CONSTRAINT sheet_uploads_status_check`.execute(db);
  await sql`
    UPDATE sheet_uploads
    SET status = CASE status WHEN 'in_progress' THEN 'running' WHEN 'pending' THEN 'running'
      WHEN 'complete' THEN 'done' ELSE status END`.execute(db);
  await sql`
    ALTER TABLE sheet_uploads ADD CONSTRAINT stock_uploads_status_check
      CHECK (status IN ('running', 'done', 'failed'))`.execute(db);
  await sql`ALTER INDEX sheet_uploads_file_idx RENAME TO stock_uploads_file_idx`.execute(db);
  await sql`ALTER TABLE sheet_uploads RENAME TO stock_uploads`.execute(db);
}
