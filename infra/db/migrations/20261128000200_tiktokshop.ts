import { type Kysely, sql } from 'kysely';

// The spec spells the TikTok Shop platform `tiktokshop` (shell.md §3); orders called it 'tiktok'. The read models'
// rows take the spec's spelling here; the events keep theirs and read as 'tiktokshop' (domain/orders
// marketplace-order.ts StoredPlatform), so a rebuild writes the same rows. The read models are behind FORCEd
// row-level security: the rename runs as the system role, which sees every tenant.

const COLUMNS = [
  ['orders', 'platform'],
  ['order_counts', 'platform'],
  ['order_shipments', 'platform'],
  ['order_returns', 'platform'],
] as const;

async function rename(db: Kysely<unknown>, from: string, to: string): Promise<void> {
  await sql`SET LOCAL ROLE kedai_system`.execute(db);
  for (const [table, column] of COLUMNS) {
    await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${to} WHERE ${sql.ref(column)} = ${from}`.execute(
      db,
    );
  }
  await sql`
    UPDATE auto_batch_configs SET platforms = array_replace(platforms, ${from}, ${to})
    WHERE ${from} = ANY (platforms)`.execute(db);
  await sql`RESET ROLE`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await rename(db, 'tiktok', 'tiktokshop');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await rename(db, 'tiktokshop', 'tiktok');
}
