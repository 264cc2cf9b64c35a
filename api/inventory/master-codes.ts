/**
 * Master codes (spec §3 "Master code"): the grid, one in full, create (within the package's limit), edit, activate
 * and deactivate; no delete, as a master code may carry stock history. Who: inventory-master-code writes; the
 * pickers of the combo, stock, movement, label and rack screens read them (any of the readers' keys).
 */
import { ErrorAnswer, GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  MasterCode,
  MasterCodeChanges,
  MasterCodeDetail,
  MasterCodeGridQuery,
  NewMasterCode,
} from '@api/contracts/inventory-master-codes';
import { found } from '@api/errors';
import { router } from '@api/route';
import { addMasterCode, changeMasterCode, setMasterCodeStatus } from '@commands/inventory/master-codes';
import { MASTER_CODE_READERS } from '@domain/inventory/readers';
import { listMasterCodes, masterCode, masterCodeById } from '@projections/inventory/master-codes';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type InventoryDeps, tags } from './common';

const readers = { anyOf: MASTER_CODE_READERS };

export const masterCodeRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (
  app,
  { db, store, initialStock },
) => {
  const route = router(app, { tags, access: { permission: 'inventory-master-code' } });

  route.get(
    '/api/inventory/master-code',
    {
      summary: "The account's master codes for ag-grid's Infinite Row Model",
      access: readers,
      query: MasterCodeGridQuery,
      answer: GridPage(MasterCode),
    },
    async (request) => {
      const page = await listMasterCodes(db, seller(request).tenantId, request.query);
      return ok(request, { rows: page.rows.map(masterCode), lastRow: page.lastRow });
    },
  );

  route.get(
    '/api/inventory/master-code/:id',
    {
      summary: 'One master code with its price list, combo items and rack locations',
      access: readers,
      params: IdParams,
      answer: MasterCodeDetail,
    },
    async (request) =>
      ok(request, found(await masterCodeById(db, seller(request).tenantId, request.params.id))),
  );

  route.post(
    '/api/inventory/master-code',
    {
      summary: "Create a master code (within the package's master-code limit)",
      body: NewMasterCode,
      answer: MasterCodeDetail,
      errors: { 409: ErrorAnswer },
    },
    async (request) => {
      const created = await addMasterCode({ db, store, initialStock }, seller(request), request.body);
      return ok(request, created, 'inventory.master_code.created');
    },
  );

  route.put(
    '/api/inventory/master-code/:id',
    {
      summary: 'Edit a master code; a price list given replaces the whole list (the type cannot change)',
      params: IdParams,
      body: MasterCodeChanges,
      answer: MasterCodeDetail,
      errors: { 409: ErrorAnswer },
    },
    async (request) => {
      const changed = await changeMasterCode({ db, store }, seller(request), {
        id: request.params.id,
        changes: request.body,
      });
      return ok(request, changed, 'inventory.master_code.updated');
    },
  );

  for (const status of ['active', 'inactive'] as const) {
    const verb = status === 'active' ? 'activate' : 'deactivate';
    const summary =
      status === 'active'
        ? 'Activate a master code'
        : 'Deactivate a master code (kept with its history; it can be activated again)';
    route.post(
      `/api/inventory/master-code/:id/${verb}`,
      { summary, params: IdParams, answer: MasterCodeDetail },
      async (request) => {
        const changed = await setMasterCodeStatus({ db }, seller(request), { id: request.params.id, status });
        return ok(request, changed, `inventory.master_code.${verb}d`);
      },
    );
  }
};
