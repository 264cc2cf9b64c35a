import { type Kysely, sql } from 'kysely';

// The order board's follow-ups of spec §4 (issue 14, item 3): the replacement order's original (`replacement_of`,
// the "replacement" list), the picker an order is assigned to (`picker_id`, "waiting assign" while null), and the
// step the marketplace refused (`process_failure`, the "process failed" list, until the step succeeds). Rows from
// before hold none of these, as no such event existed. Partial indexes for the two lists that are rare.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    ALTER TABLE orders
      ADD COLUMN replacement_of text,
      ADD COLUMN picker_id text,
      ADD COLUMN process_failure jsonb`.execute(db);
  await sql`CREATE INDEX orders_replacement_idx ON orders (tenant_id, paid_at DESC NULLS LAST, id)
    WHERE replacement_of IS NOT NULL`.execute(db);
  await sql`CREATE INDEX orders_process_failed_idx ON orders (tenant_id, paid_at DESC NULLS LAST, id)
    WHERE process_failure IS NOT NULL`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX orders_process_failed_idx`.execute(db);
  await sql`DROP INDEX orders_replacement_idx`.execute(db);
  await sql`ALTER TABLE orders DROP COLUMN process_failure, DROP COLUMN picker_id, DROP COLUMN replacement_of`.execute(
    db,
  );
}
