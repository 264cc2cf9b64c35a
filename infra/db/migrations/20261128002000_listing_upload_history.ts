import { type Kysely, sql } from 'kysely';

// The listings bulk upload (`listings-manage`; issue 15) joins the upload history beside stock adjustments,
// purchases and orders (commands/support/sheet-uploads.ts): its rows are of a fourth kind.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE sheet_uploads DROP CONSTRAINT sheet_uploads_kind_check`.execute(db);
  await sql`
    ALTER TABLE sheet_uploads ADD CONSTRAINT sheet_uploads_kind_check
      CHECK (kind IN ('stock_adjustment', 'purchase', 'order', 'listing'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DELETE FROM sheet_uploads WHERE kind = 'listing'`.execute(db);
  await sql`ALTER TABLE sheet_uploads DROP CONSTRAINT sheet_uploads_kind_check`.execute(db);
  await sql`
    ALTER TABLE sheet_uploads ADD CONSTRAINT sheet_uploads_kind_check
      CHECK (kind IN ('stock_adjustment', 'purchase', 'order'))`.execute(db);
}
