import type { AverageCostAnswer, AverageCostQuery } from '@api/contracts/purchases';
import { purchasingInputErrors } from '@domain/purchases/codes';
import { fromUnits, toUnits } from '@domain/purchases/money';
import { refuser } from '@domain/shared/errors';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { pageWindow, searchWhere, sortTerms } from './runtime/grid';

const refuse = refuser(purchasingInputErrors);

/**
 * The moving average costs (projections/average-cost.ts keeps them) as the purchasing routes answer them: what each
 * master code's units cost on average, the units held as the movements count them, how many receipts set it and
 * when the last one did.
 */

const COLUMNS: Record<AverageCostQuery['sortModel'][number]['colId'], RawBuilder<unknown>> = {
  code: sql`m.code`,
  name: sql`m.name`,
  average_cost: sql`a.average_cost`,
  on_hand: sql`a.on_hand`,
  receipts: sql`a.receipts`,
  last_receipt_at: sql`a.last_receipt_at`,
};

const SELECTED = [
  'a.master_code_id',
  'm.code',
  'm.name',
  'a.average_cost',
  'a.on_hand',
  'a.receipts',
  'a.last_receipt_at',
] as const;

const withCodes = (trx: Kysely<Database>, tenantId: string) =>
  trx
    .selectFrom('average_costs as a')
    .leftJoin('master_codes as m', (join) =>
      join
        .on(sql`m.id::text`, '=', sql.ref('a.master_code_id'))
        .on('m.tenant_id', '=', sql.ref('a.tenant_id')),
    )
    .where('a.tenant_id', '=', tenantId);

const answer = (row: {
  master_code_id: string;
  code: string | null;
  name: string | null;
  average_cost: string;
  on_hand: string;
  receipts: number;
  last_receipt_at: Date | null;
}): AverageCostAnswer => ({
  master_code_id: row.master_code_id,
  code: row.code,
  name: row.name,
  average_cost: fromUnits(toUnits(row.average_cost)),
  on_hand: Number(row.on_hand),
  receipts: row.receipts,
  last_receipt_at: row.last_receipt_at?.toISOString() ?? null,
});

/** A page of the account's average costs (ag-grid Infinite Row Model). */
export async function averageCostList(db: Kysely<Database>, tenantId: string, query: AverageCostQuery) {
  const { limit, offset } = pageWindow(query);
  const where = query.search
    ? searchWhere([sql`coalesce(m.code, '')`, sql`coalesce(m.name, '')`], query.search)
    : sql<boolean>`true`;
  const { rows, count } = await withTenant(db, tenantId, async (trx) => ({
    rows: await withCodes(trx, tenantId)
      .where(where)
      .select(SELECTED)
      .orderBy(sql.join([...sortTerms(query.sortModel, COLUMNS), sql`m.code ASC`, sql`a.master_code_id`]))
      .limit(limit)
      .offset(offset)
      .execute(),
    count: (
      await withCodes(trx, tenantId)
        .where(where)
        .select(sql<number>`count(*)::int`.as('count'))
        .executeTakeFirstOrThrow()
    ).count,
  }));
  return { rows: rows.map(answer), lastRow: count };
}

/** One master code's average cost (0.0000 and 0 units before any receipt at a cost); 404: no such code. */
export async function averageCostOfCode(
  db: Kysely<Database>,
  tenantId: string,
  masterCodeId: string,
): Promise<AverageCostAnswer> {
  const id = masterCodeId.toLowerCase();
  const code = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id)
    ? await db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', id)
        .executeTakeFirst()
    : undefined;
  if (!code) throw refuse('MASTER_CODE_NOT_FOUND', { code: masterCodeId });
  const row = await withTenant(db, tenantId, (trx) =>
    trx
      .selectFrom('average_costs')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('master_code_id', '=', code.id)
      .executeTakeFirst(),
  );
  return row
    ? answer({ ...row, code: code.code, name: code.name })
    : {
        master_code_id: code.id,
        code: code.code,
        name: code.name,
        average_cost: '0.0000',
        on_hand: 0,
        receipts: 0,
        last_receipt_at: null,
      };
}
