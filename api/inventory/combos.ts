import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ComboGridQuery, ComboItemsBody, ComboRow, NewCombo } from '@api/contracts/inventory-combos';
import { ComboItem, MasterCodeDetail } from '@api/contracts/inventory-master-codes';
import { createCombo, itemsOfCombo, replaceItemsOfCombo } from '@commands/inventory/combos';
import { listCombos } from '@projections/inventory/combos';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, type InventoryDeps } from './common';
import { findMasterCode } from './master-code-data';

/**
 * Combos (spec §3): routes over commands/inventory/combos.ts and projections/inventory/combos.ts.
 */

const access = { access: { permission: 'inventory-combo-list' } } as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

export const comboRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const { db } = deps;
  app.get(
    '/api/inventory/combo',
    {
      config: access,
      schema: {
        tags,
        summary: "The account's combos with their items, for ag-grid's Infinite Row Model",
        querystring: ComboGridQuery,
        response: { 200: Ok(GridPage(ComboRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listCombos(db, seller(request).tenantId, request.query)),
  );

  app.post(
    '/api/inventory/combo',
    {
      config: access,
      schema: {
        tags,
        summary: "Create a combo with its items (within the package's master-code limit)",
        body: NewCombo,
        response: { 200: Ok(MasterCodeDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const id = await createCombo(deps, session, request.body);
      return ok(request, await findMasterCode(db, session.tenantId, id), 'inventory.combo.created');
    },
  );

  app.get(
    '/api/inventory/combo/:id/items',
    {
      config: access,
      schema: {
        tags,
        summary: "A combo's items, in order",
        params: IdParams,
        response: { 200: Ok(z.array(ComboItem)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const items = await itemsOfCombo(deps, seller(request), { id: request.params.id });
      return ok(request, items);
    },
  );

  app.put(
    '/api/inventory/combo/:id/items',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Replace a combo's items: standard master codes of this account, each once, quantity 1 or more",
        params: IdParams,
        body: ComboItemsBody,
        response: { 200: Ok(z.array(ComboItem)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const items = await replaceItemsOfCombo(deps, seller(request), {
        id: request.params.id,
        items: request.body.items,
      });
      return ok(request, items, 'inventory.combo.items_saved');
    },
  );
};
