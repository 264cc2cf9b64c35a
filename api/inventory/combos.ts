/** Combos (spec §3): the grid, create, and a combo's items. Who: holders of inventory-combo-list. */
import { ErrorAnswer, GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { ComboGridQuery, ComboItemsBody, ComboRow, NewCombo } from '@api/contracts/inventory-combos';
import { ComboItem, MasterCodeDetail } from '@api/contracts/inventory-master-codes';
import { router } from '@api/route';
import { createCombo, itemsOfCombo, replaceItemsOfCombo } from '@commands/inventory/combos';
import { listCombos } from '@projections/inventory/combos';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type InventoryDeps, tags } from './common';

const itemsOf = { params: IdParams, answer: z.array(ComboItem), errors: { 409: ErrorAnswer } } as const;

export const comboRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags, access: { permission: 'inventory-combo-list' } });

  route.get(
    '/api/inventory/combo',
    {
      summary: "The account's combos with their items, for ag-grid's Infinite Row Model",
      query: ComboGridQuery,
      answer: GridPage(ComboRow),
    },
    async (request) => ok(request, await listCombos(db, seller(request).tenantId, request.query)),
  );

  route.post(
    '/api/inventory/combo',
    {
      summary: "Create a combo with its items (within the package's master-code limit)",
      body: NewCombo,
      answer: MasterCodeDetail,
      errors: { 409: ErrorAnswer },
    },
    async (request) =>
      ok(request, await createCombo(deps, seller(request), request.body), 'inventory.combo.created'),
  );

  route.get(
    '/api/inventory/combo/:id/items',
    { summary: "A combo's items, in order", ...itemsOf },
    async (request) => ok(request, await itemsOfCombo(deps, seller(request), { id: request.params.id })),
  );

  route.put(
    '/api/inventory/combo/:id/items',
    {
      summary: "Replace a combo's items (standard master codes of this account, each once)",
      body: ComboItemsBody,
      ...itemsOf,
    },
    async (request) => {
      const { id } = request.params;
      const items = await replaceItemsOfCombo(deps, seller(request), { id, items: request.body.items });
      return ok(request, items, 'inventory.combo.items_saved');
    },
  );
};
