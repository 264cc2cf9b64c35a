import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { literal } from '@projections/runtime/grid';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import { requireAny, TRANSFER_READERS, type TransferDeps, tags } from './common';

/**
 * What the transfer forms pick from, for users who hold a transfer key but none of the inventory screens': the
 * account's warehouses and branches, and its standard master codes by code, name or seller SKU (combos have no
 * stock to move).
 */

const PickerPlace = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  kind: z.enum(['warehouse', 'branch']),
});
const PickerMasterCode = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  status: z.enum(['active', 'inactive']),
});
const SearchQuery = z.strictObject({
  search: z.string().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(20),
});

export const transferPickerRoutes: FastifyPluginAsyncZod<TransferDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/api/transfer-stock/places',
    {
      config: { access: 'seller' },
      preHandler: requireAny(TRANSFER_READERS),
      schema: {
        tags,
        summary: 'The warehouses (default first) and branches a transfer may go from or to',
        response: { 200: Ok(z.array(PickerPlace)), ...refusals },
      },
    },
    async (request) => {
      const rows = await db
        .selectFrom('warehouses')
        .select(['id', 'code', 'name', 'kind'])
        .where('tenant_id', '=', seller(request).tenantId)
        .orderBy('kind', 'desc')
        .orderBy('is_default', 'desc')
        .orderBy('name')
        .execute();
      return ok(request, rows);
    },
  );

  app.get(
    '/api/transfer-stock/master-codes',
    {
      config: { access: 'seller' },
      preHandler: requireAny(TRANSFER_READERS),
      schema: {
        tags,
        summary: 'Standard master codes whose code, name or seller SKU contains the search, by code',
        querystring: SearchQuery,
        response: { 200: Ok(z.array(PickerMasterCode)), ...refusals },
      },
    },
    async (request) => {
      const search = request.query.search?.trim();
      let query = db
        .selectFrom('master_codes')
        .select(['id', 'code', 'name', 'status'])
        .where('tenant_id', '=', seller(request).tenantId)
        .where('type', '=', 'standard');
      if (search) {
        const pattern = `%${literal(search)}%`;
        query = query.where(
          sql<boolean>`(code ILIKE ${pattern} OR name ILIKE ${pattern} OR seller_sku ILIKE ${pattern})`,
        );
      }
      const rows = await query.orderBy('code').limit(request.query.limit).execute();
      return ok(request, rows);
    },
  );
};
