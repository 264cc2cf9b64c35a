import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  BranchChanges,
  NewBranch,
  NewWarehouse,
  PLACE_KINDS,
  Place,
  type PlaceKind,
  WarehouseChanges,
} from '@api/contracts/inventory-warehouses';
import { notFound } from '@api/errors';
import { changePlace, createPlace, deletePlace, makeDefaultWarehouse } from '@commands/inventory/warehouses';
import type { PermissionKey } from '@domain/access/permissions';
import { listPlaces, placeById } from '@projections/inventory/warehouses';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, type InventoryDeps, requireAny } from './common';

/**
 * Warehouses and branches (spec §3 "Warehouse and rack"): routes over commands/inventory/warehouses.ts and
 * projections/inventory/warehouses.ts.
 */

/** The pickers of the rack, location, stock and movement screens read the places too. */
const readers: readonly PermissionKey[] = [
  'inventory-warehouse',
  'inventory-rack',
  'inventory-master-code',
  'inventory-stock-adjustment',
  'inventory-stock-movement',
  'inventory-list-export',
  'inventory-manage-sync',
];
const access = { access: { permission: 'inventory-warehouse' } } as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

async function findPlace(
  db: InventoryDeps['db'],
  tenantId: string,
  kind: PlaceKind,
  id: string,
): Promise<Place> {
  const found = await placeById(db, tenantId, kind, id);
  if (!found) throw notFound();
  return found;
}

export const warehouseRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const { db } = deps;
  for (const kind of PLACE_KINDS) {
    const path = `/api/inventory/${kind}`;
    const isWarehouse = kind === 'warehouse';

    app.get(
      path,
      {
        config: { access: 'seller' },
        preHandler: requireAny(readers),
        schema: {
          tags,
          summary: isWarehouse
            ? "The account's warehouses, the default first, then by name"
            : "The account's branches, by name",
          response: { 200: Ok(z.array(Place)), ...refusals },
        },
      },
      async (request) => {
        const rows = await listPlaces(db, seller(request).tenantId, kind);
        return ok(request, rows);
      },
    );

    app.get(
      `${path}/:id`,
      {
        config: { access: 'seller' },
        preHandler: requireAny(readers),
        schema: {
          tags,
          summary: `One ${kind}`,
          params: IdParams,
          response: { 200: Ok(Place), ...refusals },
        },
      },
      async (request) => ok(request, await findPlace(db, seller(request).tenantId, kind, request.params.id)),
    );

    app.post(
      path,
      {
        config: access,
        schema: {
          tags,
          summary: isWarehouse
            ? 'Add a warehouse (the first one, or one marked default, becomes the default)'
            : "Add a branch (within the package's branch limit: 403, code 487, past it)",
          body: isWarehouse ? NewWarehouse : NewBranch,
          response: { 200: Ok(Place), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const { tenantId } = session;
        const id = await createPlace(deps, session, {
          kind,
          place: request.body as NewWarehouse | NewBranch,
        });
        return ok(request, await findPlace(db, tenantId, kind, id), `inventory.${kind}.created`);
      },
    );

    app.put(
      `${path}/:id`,
      {
        config: access,
        schema: {
          tags,
          summary: isWarehouse
            ? 'Edit a warehouse (marking it default clears the old default; the default cannot be unset)'
            : 'Edit a branch',
          params: IdParams,
          body: isWarehouse ? WarehouseChanges : BranchChanges,
          response: { 200: Ok(Place), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const session = seller(request);
        const { tenantId } = session;
        await changePlace(deps, session, {
          kind,
          id: request.params.id,
          changes: request.body as WarehouseChanges | BranchChanges,
        });
        return ok(
          request,
          await findPlace(db, tenantId, kind, request.params.id),
          `inventory.${kind}.updated`,
        );
      },
    );

    app.delete(
      `${path}/:id`,
      {
        config: access,
        schema: {
          tags,
          summary: `Delete a ${kind} whose master codes all have 0 stock, with its racks and rack locations`,
          params: IdParams,
          response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
        },
      },
      async (request) => {
        const id = await deletePlace(deps, seller(request), { kind, id: request.params.id });
        return ok(request, { id }, `inventory.${kind}.deleted`);
      },
    );
  }

  app.post(
    '/api/inventory/warehouse/:id/default',
    {
      config: access,
      schema: {
        tags,
        summary: 'Make a warehouse the default (the old default is cleared in the same change)',
        params: IdParams,
        response: { 200: Ok(Place), ...refusals },
      },
    },
    async (request) => {
      const { tenantId } = seller(request);
      await makeDefaultWarehouse(deps, seller(request), { id: request.params.id });
      return ok(
        request,
        await findPlace(db, tenantId, 'warehouse', request.params.id),
        'inventory.warehouse.default_set',
      );
    },
  );
};
