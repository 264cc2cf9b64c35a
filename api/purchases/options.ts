import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { literal } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { type PurchaseDeps, tags, viewing } from './common';

/**
 * The pickers of the purchase screens, for users who hold the purchases keys without the inventory ones: the places
 * an order can be delivered to, and the standard master codes an order can buy (a combo has no stock of its own).
 */

const PlaceOption = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(['warehouse', 'branch']),
});
const MasterCodeOption = z.object({ id: z.string(), code: z.string(), name: z.string(), cost: z.string() });

export const purchaseOptionRoutes: FastifyPluginAsyncZod<PurchaseDeps> = async (app, { db }) => {
  app.get(
    '/api/purchases/options/warehouses',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'The warehouses and branches an order can be delivered to (the default warehouse first)',
        response: { 200: Ok(z.array(PlaceOption)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const rows = await db
        .selectFrom('warehouses')
        .select(['id', 'code', 'name', 'kind'])
        .where('tenant_id', '=', tenantId)
        .orderBy('is_default', 'desc')
        .orderBy('kind', 'desc')
        .orderBy(sql`lower(name)`)
        .execute();
      return ok(request, rows);
    },
  );

  app.get(
    '/api/purchases/options/master-codes',
    {
      config: viewing,
      schema: {
        tags,
        summary: 'Standard master codes matching the search (code, name, seller SKU), at most `limit`',
        querystring: z.strictObject({
          search: z.string().trim().max(100).default(''),
          limit: z.coerce.number().int().min(1).max(50).default(20),
        }),
        response: { 200: Ok(z.array(MasterCodeOption)), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      const { search, limit } = request.query;
      const pattern = `%${literal(search)}%`;
      const rows = await db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'cost'])
        .where('tenant_id', '=', tenantId)
        .where('type', '=', 'standard')
        .where(
          search
            ? sql<boolean>`(code ILIKE ${pattern} OR name ILIKE ${pattern} OR seller_sku ILIKE ${pattern})`
            : sql<boolean>`true`,
        )
        .orderBy(sql`lower(code)`)
        .limit(limit)
        .execute();
      return ok(request, rows);
    },
  );
};
