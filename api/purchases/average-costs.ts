import { GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { gridQuery } from '@api/contracts/grid';
import { IdParams, isUuid } from '@api/ids';
import { fromUnits, toUnits } from '@domain/purchases/money';
import type { Database } from '@infra/db';
import { withTenant } from '@infra/db/tenant';
import { pageWindow, searchWhere, sortTerms } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type Kysely, type RawBuilder, sql } from 'kysely';
import { z } from 'zod';
import { masterCodeMissing, type PurchaseDeps, tags, viewing } from './common';

/**
 * The moving average cost of each master code across the account (projections/average-cost.ts): what its units
 * cost on average, blended from every goods receive note's net unit costs; the units held as the movements count
 * them; how many receipts set it, and when the last one did. Live view `averageCosts`.
 */

export const AverageCostAnswer = z.object({
  master_code_id: z.string(),
  code: z.string().nullable(),
  name: z.string().nullable(),
  average_cost: z.string(),
  on_hand: z.number().int(),
  receipts: z.number().int(),
  last_receipt_at: z.string().nullable(),
});

const SORT_COLUMNS = ['code', 'name', 'average_cost', 'on_hand', 'receipts', 'last_receipt_at'] as const;
const ListQuery = gridQuery(SORT_COLUMNS, {});
const COLUMNS: Record<(typeof SORT_COLUMNS)[number], RawBuilder<unknown>> = {
  code: sql`m.code`,
  name: sql`m.name`,
  average_cost: sql`a.average_cost`,
  on_hand: sql`a.on_hand`,
  receipts: sql`a.receipts`,
  last_receipt_at: sql`a.last_receipt_at`,
};

export const averageCostRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  const query = (trx: Kysely<Database>, tenantId: string) =>
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
  }) => ({
    master_code_id: row.master_code_id,
    code: row.code,
    name: row.name,
    average_cost: fromUnits(toUnits(row.average_cost)),
    on_hand: Number(row.on_hand),
    receipts: row.receipts,
    last_receipt_at: row.last_receipt_at?.toISOString() ?? null,
  });
  const columns = [
    'a.master_code_id',
    'm.code',
    'm.name',
    'a.average_cost',
    'a.on_hand',
    'a.receipts',
    'a.last_receipt_at',
  ] as const;

  app.get(
    '/api/purchases/average-costs',
    {
      config: viewing,
      schema: {
        tags,
        summary:
          'The moving average cost of every master code received at a cost (ag-grid Infinite Row Model)',
        querystring: ListQuery,
        response: { 200: Ok(GridPage(AverageCostAnswer)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const { limit, offset } = pageWindow(request.query);
      const search = request.query.search;
      const where = search
        ? searchWhere([sql`coalesce(m.code, '')`, sql`coalesce(m.name, '')`], search)
        : sql<boolean>`true`;
      const { rows, count } = await withTenant(db, tenantId, async (trx) => ({
        rows: await query(trx, tenantId)
          .where(where)
          .select(columns)
          .orderBy(
            sql.join([
              ...sortTerms(request.query.sortModel, COLUMNS),
              sql`m.code ASC`,
              sql`a.master_code_id`,
            ]),
          )
          .limit(limit)
          .offset(offset)
          .execute(),
        count: (
          await query(trx, tenantId)
            .where(where)
            .select(sql<number>`count(*)::int`.as('count'))
            .executeTakeFirstOrThrow()
        ).count,
      }));
      return ok(request, { rows: rows.map(answer), lastRow: count });
    },
  );

  app.get(
    '/api/purchases/average-costs/:id',
    {
      config: viewing,
      schema: {
        tags,
        summary: "One master code's moving average cost (0.0000 and 0 units before any receipt at a cost)",
        params: IdParams,
        response: { 200: Ok(AverageCostAnswer), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const id = request.params.id.toLowerCase();
      const code = isUuid(id)
        ? await db
            .selectFrom('master_codes')
            .select(['id', 'code', 'name'])
            .where('tenant_id', '=', tenantId)
            .where('id', '=', id)
            .executeTakeFirst()
        : undefined;
      if (!code) throw masterCodeMissing(request.params.id);
      const row = await withTenant(db, tenantId, (trx) =>
        trx
          .selectFrom('average_costs')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where('master_code_id', '=', code.id)
          .executeTakeFirst(),
      );
      return ok(
        request,
        row
          ? answer({ ...row, code: code.code, name: code.name })
          : {
              master_code_id: code.id,
              code: code.code,
              name: code.name,
              average_cost: '0.0000',
              on_hand: 0,
              receipts: 0,
              last_receipt_at: null,
            },
      );
    },
  );
};
