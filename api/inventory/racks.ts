/**
 * Racks inside a warehouse or branch, and a master code's rack location per place (spec §3 "Warehouse and rack").
 * Who: holders of inventory-rack.
 */
import { GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { DeletedId } from '@api/contracts/inventory-fields';
import { MasterCodeLocation } from '@api/contracts/inventory-master-codes';
import {
  LocationBody,
  LocationParams,
  NewRack,
  Rack,
  RackChanges,
  RackGridQuery,
  RackLocationGridQuery,
  RackLocationRow,
} from '@api/contracts/inventory-racks';
import { found } from '@api/errors';
import { conflict, router } from '@api/route';
import { changeRack, createRack, deleteRack, removeLocation, setLocation } from '@commands/inventory/racks';
import { listLocations, listRacks, rackById } from '@projections/inventory/racks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type InventoryDeps, tags } from './common';

const conflicts = { errors: conflict } as const;
const rackOf = { params: IdParams, answer: Rack, ...conflicts } as const;
const locationsOf = { answer: z.array(MasterCodeLocation), ...conflicts } as const;

export const rackRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags, access: { permission: 'inventory-rack' } });

  route.get(
    '/api/inventory/rack',
    {
      summary: "The account's racks (of one place with warehouse_id) for ag-grid's Infinite Row Model",
      query: RackGridQuery,
      answer: GridPage(Rack),
    },
    async (request) => ok(request, await listRacks(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/inventory/rack/:id',
    { summary: 'One rack', params: IdParams, answer: Rack },
    async (request) => ok(request, found(await rackById(db, seller(request).tenantId, request.params.id))),
  );

  route.post(
    '/api/inventory/rack',
    {
      summary: 'Add a rack to a warehouse or branch (names are unique within the place)',
      body: NewRack,
      answer: Rack,
      ...conflicts,
    },
    async (request) =>
      ok(request, await createRack(deps, seller(request), request.body), 'inventory.rack.created'),
  );

  route.put(
    '/api/inventory/rack/:id',
    { summary: 'Rename a rack, or change its status or note', ...rackOf, body: RackChanges },
    async (request) => {
      const changed = await changeRack(deps, seller(request), {
        id: request.params.id,
        changes: request.body,
      });
      return ok(request, changed, 'inventory.rack.updated');
    },
  );

  route.delete(
    '/api/inventory/rack/:id',
    { summary: 'Delete a rack no master code sits on', params: IdParams, answer: DeletedId, ...conflicts },
    async (request) => {
      const id = await deleteRack(deps, seller(request), { id: request.params.id });
      return ok(request, { id }, 'inventory.rack.deleted');
    },
  );

  route.get(
    '/api/inventory/rack-location',
    {
      summary: "Master codes' rack locations, of every place or one, for ag-grid",
      query: RackLocationGridQuery,
      answer: GridPage(RackLocationRow),
    },
    async (request) => ok(request, await listLocations(db, seller(request).tenantId, request.query)),
  );

  route.put(
    '/api/inventory/master-code/:id/location',
    {
      summary: 'Put a master code in a place, on one of its racks or none; answers its locations',
      params: IdParams,
      body: LocationBody,
      ...locationsOf,
    },
    async (request) => {
      const location = { masterCodeId: request.params.id, location: request.body };
      return ok(request, await setLocation(deps, seller(request), location), 'inventory.location.saved');
    },
  );

  route.delete(
    '/api/inventory/master-code/:id/location/:warehouseId',
    {
      summary: 'Remove a master code from a warehouse or branch: only with 0 quantity there',
      params: LocationParams,
      ...locationsOf,
    },
    async (request) => {
      const location = { masterCodeId: request.params.id, warehouseId: request.params.warehouseId };
      return ok(request, await removeLocation(deps, seller(request), location), 'inventory.location.removed');
    },
  );
};
