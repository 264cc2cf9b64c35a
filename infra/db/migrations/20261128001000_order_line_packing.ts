import { type Kysely, sql } from 'kysely';

// An order line's free-gift mark and its bin and serial numbers (spec §3 order item; issue 14), as the pick list reads
// them. No order recorded any before, so the defaults are what a rebuild would write.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE order_lines
      ADD COLUMN gift boolean NOT NULL DEFAULT false,
      ADD COLUMN bin_number text,
      ADD COLUMN serial_numbers text[] NOT NULL DEFAULT '{}'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE order_lines
      DROP COLUMN gift,
      DROP COLUMN bin_number,
      DROP COLUMN serial_numbers`.execute(db);
}
