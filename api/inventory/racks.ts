import { ErrorAnswer, GridPage, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { MasterCodeLocation } from '@api/contracts/inventory-master-codes';
import {
  LocationBody,
  NewRack,
  Rack,
  RackChanges,
  RackGridQuery,
  RackLocationGridQuery,
  RackLocationRow,
} from '@api/contracts/inventory-racks';
import { notFound } from '@api/errors';
import { changeRack, createRack, deleteRack, removeLocation, setLocation } from '@commands/inventory/racks';
import { masterCodeLocations } from '@projections/inventory/master-codes';
import { listLocations, listRacks, rackById } from '@projections/inventory/racks';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, type InventoryDeps } from './common';

/**
 * Racks inside a warehouse or branch, and a master code's rack location per place: routes over
 * commands/inventory/racks.ts and projections/inventory/racks.ts.
 */

const access = { access: { permission: 'inventory-rack' } } as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

async function findRack(db: InventoryDeps['db'], tenantId: string, id: string): Promise<Rack> {
  const found = await rackById(db, tenantId, id);
  if (!found) throw notFound();
  return found;
}

export const rackRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const { db } = deps;

  app.get(
    '/api/inventory/rack',
    {
      config: access,
      schema: {
        tags,
        summary: "The account's racks (of one place with warehouse_id) for ag-grid's Infinite Row Model",
        querystring: RackGridQuery,
        response: { 200: Ok(GridPage(Rack)), ...refusals },
      },
    },
    async (request) => ok(request, await listRacks(db, seller(request).tenantId, request.query)),
  );

  app.get(
    '/api/inventory/rack/:id',
    {
      config: access,
      schema: { tags, summary: 'One rack', params: IdParams, response: { 200: Ok(Rack), ...refusals } },
    },
    async (request) => ok(request, await findRack(db, seller(request).tenantId, request.params.id)),
  );

  app.post(
    '/api/inventory/rack',
    {
      config: access,
      schema: {
        tags,
        summary: 'Add a rack to a warehouse or branch (names are unique within the place)',
        body: NewRack,
        response: { 200: Ok(Rack), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const id = await createRack(deps, session, request.body);
      return ok(request, await findRack(db, tenantId, id), 'inventory.rack.created');
    },
  );

  app.put(
    '/api/inventory/rack/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Rename a rack, or change its status or note',
        params: IdParams,
        body: RackChanges,
        response: { 200: Ok(Rack), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      await changeRack(deps, session, { id: request.params.id, changes: request.body });
      return ok(request, await findRack(db, tenantId, request.params.id), 'inventory.rack.updated');
    },
  );

  app.delete(
    '/api/inventory/rack/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a rack no master code sits on',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const id = await deleteRack(deps, seller(request), { id: request.params.id });
      return ok(request, { id }, 'inventory.rack.deleted');
    },
  );

  app.get(
    '/api/inventory/rack-location',
    {
      config: access,
      schema: {
        tags,
        summary:
          "Master codes' rack locations (of one place with warehouse_id) for ag-grid's Infinite Row Model",
        querystring: RackLocationGridQuery,
        response: { 200: Ok(GridPage(RackLocationRow)), ...refusals },
      },
    },
    async (request) => ok(request, await listLocations(db, seller(request).tenantId, request.query)),
  );

  app.put(
    '/api/inventory/master-code/:id/location',
    {
      config: access,
      schema: {
        tags,
        summary:
          'Put a master code in a warehouse or branch, on a rack of that place or none; answers its locations',
        params: IdParams,
        body: LocationBody,
        response: { 200: Ok(z.array(MasterCodeLocation)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const masterCodeId = await setLocation(deps, session, {
        masterCodeId: request.params.id,
        location: request.body,
      });
      return ok(request, await masterCodeLocations(db, tenantId, masterCodeId), 'inventory.location.saved');
    },
  );

  app.delete(
    '/api/inventory/master-code/:id/location/:warehouseId',
    {
      config: access,
      schema: {
        tags,
        summary: 'Remove a master code from a warehouse or branch: only with 0 quantity there',
        params: z.strictObject({ id: z.string().max(64), warehouseId: z.string().max(64) }),
        response: { 200: Ok(z.array(MasterCodeLocation)), ...refusals, ...conflicts },
      },
    },
    async (request) => {
      const session = seller(request);
      const { tenantId } = session;
      const masterCodeId = await removeLocation(deps, session, {
        masterCodeId: request.params.id,
        warehouseId: request.params.warehouseId,
      });
      return ok(request, await masterCodeLocations(db, tenantId, masterCodeId), 'inventory.location.removed');
    },
  );
};
