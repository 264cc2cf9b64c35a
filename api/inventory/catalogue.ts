import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import {
  BrandBody,
  CatalogueEntry,
  CategoryChanges,
  InventoryCategory,
  InventoryCategoryNode,
  NewCategory,
  UnitBody,
} from '@api/contracts/inventory-catalogue';
import {
  changeCategory,
  createCategory,
  createEntry,
  deleteCategory,
  deleteEntry,
  renameEntry,
} from '@commands/inventory/catalogue';
import { categoryTree, type FlatKind, listEntries } from '@projections/inventory/catalogue';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { IdParams, type InventoryDeps, requireAny } from './common';

/**
 * The inventory's categories (a tree per account), brands and units: the pickers of the master code editor. Routes
 * over commands/inventory/catalogue.ts and projections/inventory/catalogue.ts.
 */

const access = { access: { permission: 'inventory-categories' } } as const;
/** Reading the pickers: the master code and combo editors need them too. */
const readers = ['inventory-categories', 'inventory-master-code', 'inventory-combo-list'] as const;
const tags = ['inventory'];
const conflicts = { 409: ErrorAnswer };

type App = Parameters<FastifyPluginAsyncZod<InventoryDeps>>[0];

function categoryRoutes(app: App, deps: InventoryDeps) {
  app.get(
    '/api/inventory/category',
    {
      config: { access: 'seller' },
      preHandler: requireAny(readers),
      schema: {
        tags,
        summary: "The account's inventory category tree, sorted by name",
        response: { 200: Ok(z.array(InventoryCategoryNode)), ...refusals },
      },
    },
    async (request) => ok(request, await categoryTree(deps.db, seller(request).tenantId)),
  );

  app.post(
    '/api/inventory/category',
    {
      config: access,
      schema: {
        tags,
        summary: 'Add a category at the root or under a parent',
        body: NewCategory,
        response: { 200: Ok(InventoryCategory), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(request, await createCategory(deps, seller(request), request.body), 'inventory.category.created'),
  );

  app.put(
    '/api/inventory/category/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Rename or move a category (never under itself or one of its sub-categories)',
        params: IdParams,
        body: CategoryChanges,
        response: { 200: Ok(InventoryCategory), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(
        request,
        await changeCategory(deps, seller(request), { id: request.params.id, changes: request.body }),
        'inventory.category.updated',
      ),
  );

  app.delete(
    '/api/inventory/category/:id',
    {
      config: access,
      schema: {
        tags,
        summary: 'Delete a category no master code uses and without sub-categories',
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(
        request,
        { id: await deleteCategory(deps, seller(request), { id: request.params.id }) },
        'inventory.category.deleted',
      ),
  );
}

// ---- brands and units: a name each ----

function flatListRoutes(app: App, deps: InventoryDeps, kind: FlatKind) {
  const Body = kind === 'brand' ? BrandBody : UnitBody;
  const path = `/api/inventory/${kind}`;

  app.get(
    path,
    {
      config: { access: 'seller' },
      preHandler: requireAny(readers),
      schema: {
        tags,
        summary: `The account's ${kind}s, sorted by name`,
        response: { 200: Ok(z.array(CatalogueEntry)), ...refusals },
      },
    },
    async (request) => ok(request, await listEntries(deps.db, seller(request).tenantId, kind)),
  );

  app.post(
    path,
    {
      config: access,
      schema: {
        tags,
        summary: `Add a ${kind}`,
        body: Body,
        response: { 200: Ok(CatalogueEntry), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(
        request,
        await createEntry(deps, seller(request), { kind, name: request.body.name }),
        `inventory.${kind}.created`,
      ),
  );

  app.put(
    `${path}/:id`,
    {
      config: access,
      schema: {
        tags,
        summary: `Rename a ${kind}`,
        params: IdParams,
        body: Body,
        response: { 200: Ok(CatalogueEntry), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(
        request,
        await renameEntry(deps, seller(request), { kind, id: request.params.id, name: request.body.name }),
        `inventory.${kind}.updated`,
      ),
  );

  app.delete(
    `${path}/:id`,
    {
      config: access,
      schema: {
        tags,
        summary: `Delete a ${kind} no master code uses`,
        params: IdParams,
        response: { 200: Ok(z.object({ id: z.string() })), ...refusals, ...conflicts },
      },
    },
    async (request) =>
      ok(
        request,
        { id: await deleteEntry(deps, seller(request), { kind, id: request.params.id }) },
        `inventory.${kind}.deleted`,
      ),
  );
}

export const catalogueRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  categoryRoutes(app, deps);
  flatListRoutes(app, deps, 'brand');
  flatListRoutes(app, deps, 'unit');
};
