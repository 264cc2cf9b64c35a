import { type Kysely, sql } from 'kysely';

// The orders bulk upload (the `orders-upload` key; issue 14) joins the upload history beside stock adjustments and
// purchases (commands/support/sheet-uploads.ts): its rows are of a third kind.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sheet_uploads DROP CONSTRAINT sheet_uploads_kind_check`.execute(db);
  await sql`
    ALTER TABLE sheet_uploads ADD CONSTRAINT sheet_uploads_kind_check
      CHECK (kind IN ('stock_adjustment', 'purchase', 'order'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM sheet_uploads WHERE kind = 'order'`.execute(db);
  await sql`ALTER TABLE sheet_uploads DROP CONSTRAINT sheet_uploads_kind_check`.execute(db);
  await sql`
    ALTER TABLE sheet_uploads ADD CONSTRAINT sheet_uploads_kind_check
      CHECK (kind IN ('stock_adjustment', 'purchase'))`.execute(db);
}
