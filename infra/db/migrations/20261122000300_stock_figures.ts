import { type Kysely, sql } from 'kysely';

// Every stock figure of spec §3 in the stock read models (projections/stock.ts): in process, the three holds and
// incoming join on hand and reserved, on each level and on each ledger row (the figures after the movement, for the
// point-in-time view). Available becomes what the channels may sell: on hand less reserved, in process and holds.
const FIGURES = ['in_process', 'on_hold', 'pos_on_hold', 'supplier_on_hold', 'incoming'] as const;
const AVAILABLE = sql.raw('on_hand - reserved - in_process - on_hold - pos_on_hold - supplier_on_hold');

async function levelIndexes(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX stock_levels_available_idx ON stock_levels (tenant_id, warehouse_id, available, master_code_id)`.execute(
    db,
  );
  await sql`CREATE INDEX stock_levels_tenant_available_idx ON stock_levels (tenant_id, available, master_code_id, warehouse_id)`.execute(
    db,
  );
  await sql`CREATE INDEX stock_levels_negative_idx ON stock_levels (tenant_id, warehouse_id, available) WHERE negative`.execute(
    db,
  );
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['stock_levels', 'stock_movements']) {
    for (const figure of FIGURES) {
      // Rows written before this migration came from events without these figures: they were 0.
      await sql`ALTER TABLE ${sql.table(table)} ADD COLUMN ${sql.ref(figure)} bigint NOT NULL DEFAULT 0`.execute(
        db,
      );
      await sql`ALTER TABLE ${sql.table(table)} ALTER COLUMN ${sql.ref(figure)} DROP DEFAULT`.execute(db);
    }
  }
  // Dropping the generated columns drops the indexes on them; they are made again on the new definition.
  await sql`ALTER TABLE stock_levels DROP COLUMN negative, DROP COLUMN available`.execute(db);
  await sql`ALTER TABLE stock_levels
    ADD COLUMN available bigint GENERATED ALWAYS AS (${AVAILABLE}) STORED NOT NULL,
    ADD COLUMN negative boolean GENERATED ALWAYS AS (${AVAILABLE} < 0) STORED NOT NULL`.execute(db);
  await levelIndexes(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE stock_levels DROP COLUMN negative, DROP COLUMN available`.execute(db);
  for (const table of ['stock_levels', 'stock_movements']) {
    for (const figure of FIGURES) {
      await sql`ALTER TABLE ${sql.table(table)} DROP COLUMN ${sql.ref(figure)}`.execute(db);
    }
  }
  await sql`ALTER TABLE stock_levels
    ADD COLUMN available bigint GENERATED ALWAYS AS (on_hand - reserved) STORED NOT NULL,
    ADD COLUMN negative boolean GENERATED ALWAYS AS (on_hand - reserved < 0) STORED NOT NULL`.execute(db);
  await levelIndexes(db);
}
