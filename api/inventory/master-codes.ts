import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  MasterCode,
  MasterCodeChanges,
  MasterCodeDetail,
  MasterCodeGridQuery,
  NewMasterCode,
} from '@api/contracts/inventory-master-codes';
import { changeMasterCode, createMasterCode, setMasterCodeStatus } from '@commands/inventory/master-codes';
import { listMasterCodes, masterCode } from '@projections/inventory/master-codes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams, type InventoryDeps, requireAny } from './common';
import { findMasterCode } from './master-code-data';

/**
 * Master codes (spec §3 "Master code"): the grid, one master code in full, create (within the package's limit),
 * edit, activate and deactivate. There is no delete: a master code may already carry stock history, so a seller
 * deactivates it instead. Combo items and rack locations have routes of their own (combos.ts, racks.ts).
 */

const conflicts = { 409: ErrorAnswer };
const access = { access: { permission: 'inventory-master-code' } } as const;
/**
 * Reading master codes (the grid and one in full) is also what the pickers of the combo, stock, movement, label and
 * rack screens do: any of their keys reads them; writing needs inventory-master-code.
 */
const readAccess = { access: 'seller' } as const;
const readers = requireAny([
  'inventory-master-code',
  'inventory-combo-list',
  'inventory-stock-adjustment',
  'inventory-stock-movement',
  'inventory-list-export',
  'inventory-rack',
]);
const tags = ['inventory'];

export const masterCodeRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db, initialStock }) => {
  app.get(
    '/api/inventory/master-code',
    {
      config: readAccess,
      preHandler: readers,
      schema: {
        tags,
        summary: "The account's master codes for ag-grid's Infinite Row Model",
        querystring: MasterCodeGridQuery,
        response: { 200: Ok(GridPage(MasterCode)), ...refusals },
      },
    },
    async (request) => {
      const page = await listMasterCodes(db, seller(request).tenantId, request.query);
      return ok(request, { rows: page.rows.map(masterCode), lastRow: page.lastRow });
    },
  );

  app.get(
    '/api/inventory/master-code/:id',
    {
      config: readAccess,
      preHandler: readers,
      schema: {
        tags,
        summary: 'One master code with its price list, combo items and rack locations',
        params: IdParams,
        response: { 200: Ok(MasterCodeDetail), ...refusals },
      },
    },
    async (request) => ok(request, await findMasterCode(db, seller(request).tenantId, request.params.id)),
  );

  app.post(
    '/api/inventory/master-code',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Create a master code (409 when the code is taken; 403, code 472, past the package's master-code limit)",
        body: NewMasterCode,
        response: { 200: Ok(MasterCodeDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const id = await createMasterCode({ db }, session, request.body);
      // Once the row is committed: the initial quantity is received into the default warehouse (once, by its id).
      if (request.body.initial_quantity > 0) await initialStock?.(session, id, request.body.initial_quantity);
      return ok(request, await findMasterCode(db, session.tenantId, id), 'inventory.master_code.created');
    },
  );

  app.put(
    '/api/inventory/master-code/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Edit a master code; a price list given replaces the whole list (the type cannot change)',
        params: IdParams,
        body: MasterCodeChanges,
        response: { 200: Ok(MasterCodeDetail), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const { id } = request.params;
      await changeMasterCode({ db }, session, { id, changes: request.body });
      return ok(request, await findMasterCode(db, tenantId, id), 'inventory.master_code.updated');
    },
  );

  for (const status of ['active', 'inactive'] as const) {
    const verb = status === 'active' ? 'activate' : 'deactivate';
    app.post(
      `/api/inventory/master-code/:id/${verb}`,
      {
        config: access,
        schema: {
          tags,
          summary:
            status === 'active'
              ? 'Activate a master code'
              : 'Deactivate a master code (kept with its history; it can be activated again)',
          params: IdParams,
          response: { 200: Ok(MasterCodeDetail), ...refusals },
        },
      },
      async (request) => {
        const session = seller(request);
        const { id } = request.params;
        await setMasterCodeStatus({ db }, session, { id, status });
        return ok(request, await findMasterCode(db, session.tenantId, id), `inventory.master_code.${verb}d`);
      },
    );
  }
};
