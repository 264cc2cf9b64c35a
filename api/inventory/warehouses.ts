/**
 * Warehouses and branches (spec §3 "Warehouse and rack"). Who: inventory-warehouse writes; the pickers of the rack,
 * location, stock and movement screens read them with any inventory key below.
 */
import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { DeletedId } from '@api/contracts/inventory-fields';
import {
  BranchChanges,
  NewBranch,
  NewWarehouse,
  PLACE_KINDS,
  Place,
  WarehouseChanges,
} from '@api/contracts/inventory-warehouses';
import { found } from '@api/errors';
import { router } from '@api/route';
import { changePlace, createPlace, deletePlace, makeDefaultWarehouse } from '@commands/inventory/warehouses';
import { PLACE_READERS } from '@domain/inventory/readers';
import { listPlaces, placeById } from '@projections/inventory/warehouses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type InventoryDeps, tags } from './common';

const readers = { anyOf: PLACE_READERS };
const conflicts = { errors: { 409: ErrorAnswer } } as const;

export const warehouseRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags, access: { permission: 'inventory-warehouse' } });

  for (const kind of PLACE_KINDS) {
    const path = `/api/inventory/${kind}`;
    const isWarehouse = kind === 'warehouse';

    route.get(
      path,
      {
        summary: isWarehouse
          ? "The account's warehouses, the default first, then by name"
          : "The account's branches, by name",
        access: readers,
        answer: z.array(Place),
      },
      async (request) => ok(request, await listPlaces(db, seller(request).tenantId, kind)),
    );

    route.get(
      `${path}/:id`,
      { summary: `One ${kind}`, access: readers, params: IdParams, answer: Place },
      async (request) =>
        ok(request, found(await placeById(db, seller(request).tenantId, kind, request.params.id))),
    );

    route.post(
      path,
      {
        summary: isWarehouse
          ? 'Add a warehouse (the first one, or one marked default, becomes the default)'
          : "Add a branch (within the package's branch limit: 403, code 487, past it)",
        body: isWarehouse ? NewWarehouse : NewBranch,
        answer: Place,
        ...conflicts,
      },
      async (request) => {
        const created = await createPlace(deps, seller(request), {
          kind,
          place: request.body as NewWarehouse,
        });
        return ok(request, created, `inventory.${kind}.created`);
      },
    );

    route.put(
      `${path}/:id`,
      {
        summary: isWarehouse
          ? 'Edit a warehouse (marking it default clears the old default; the default cannot be unset)'
          : 'Edit a branch',
        params: IdParams,
        body: isWarehouse ? WarehouseChanges : BranchChanges,
        answer: Place,
        ...conflicts,
      },
      async (request) => {
        const changes = { kind, id: request.params.id, changes: request.body as WarehouseChanges };
        return ok(request, await changePlace(deps, seller(request), changes), `inventory.${kind}.updated`);
      },
    );

    route.delete(
      `${path}/:id`,
      {
        summary: `Delete a ${kind} whose master codes all have 0 stock, with its racks and rack locations`,
        params: IdParams,
        answer: DeletedId,
        ...conflicts,
      },
      async (request) => {
        const id = await deletePlace(deps, seller(request), { kind, id: request.params.id });
        return ok(request, { id }, `inventory.${kind}.deleted`);
      },
    );
  }

  route.post(
    '/api/inventory/warehouse/:id/default',
    {
      summary: 'Make a warehouse the default (the old default is cleared in the same change)',
      params: IdParams,
      answer: Place,
    },
    async (request) => {
      const warehouse = await makeDefaultWarehouse(deps, seller(request), { id: request.params.id });
      return ok(request, warehouse, 'inventory.warehouse.default_set');
    },
  );
};
