/**
 * The inventory's categories (a tree per account), brands and units: the pickers of the master code editor. Who:
 * inventory-categories writes; the master code and combo editors read them too (any of the readers' keys).
 */
import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  BrandBody,
  CatalogueEntry,
  CategoryChanges,
  InventoryCategory,
  InventoryCategoryNode,
  NewCategory,
  UnitBody,
} from '@api/contracts/inventory-catalogue';
import { DeletedId } from '@api/contracts/inventory-fields';
import { router } from '@api/route';
import {
  changeCategory,
  createCategory,
  createEntry,
  deleteCategory,
  deleteEntry,
  renameEntry,
} from '@commands/inventory/catalogue';
import { CATALOGUE_READERS } from '@domain/inventory/readers';
import { categoryTree, listEntries } from '@projections/inventory/catalogue';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type InventoryDeps, tags } from './common';

const readers = { anyOf: CATALOGUE_READERS };
const conflicts = { errors: { 409: ErrorAnswer } } as const;
const deleted = { params: IdParams, answer: DeletedId, ...conflicts } as const;

export const catalogueRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, deps) => {
  const route = router(app, { tags, access: { permission: 'inventory-categories' } });

  route.get(
    '/api/inventory/category',
    {
      summary: "The account's inventory category tree, sorted by name",
      access: readers,
      answer: z.array(InventoryCategoryNode),
    },
    async (request) => ok(request, await categoryTree(deps.db, seller(request).tenantId)),
  );

  route.post(
    '/api/inventory/category',
    {
      summary: 'Add a category at the root or under a parent',
      body: NewCategory,
      answer: InventoryCategory,
      ...conflicts,
    },
    async (request) =>
      ok(request, await createCategory(deps, seller(request), request.body), 'inventory.category.created'),
  );

  route.put(
    '/api/inventory/category/:id',
    {
      summary: 'Rename or move a category (never under itself or one of its sub-categories)',
      params: IdParams,
      body: CategoryChanges,
      answer: InventoryCategory,
      ...conflicts,
    },
    async (request) => {
      const changed = await changeCategory(deps, seller(request), {
        id: request.params.id,
        changes: request.body,
      });
      return ok(request, changed, 'inventory.category.updated');
    },
  );

  route.delete(
    '/api/inventory/category/:id',
    { summary: 'Delete a category no master code uses and without sub-categories', ...deleted },
    async (request) => {
      const id = await deleteCategory(deps, seller(request), { id: request.params.id });
      return ok(request, { id }, 'inventory.category.deleted');
    },
  );

  // Brands and units: a name each.
  for (const kind of ['brand', 'unit'] as const) {
    const path = `/api/inventory/${kind}`;
    const named = { body: kind === 'brand' ? BrandBody : UnitBody, answer: CatalogueEntry, ...conflicts };

    route.get(
      path,
      { summary: `The account's ${kind}s, sorted by name`, access: readers, answer: z.array(CatalogueEntry) },
      async (request) => ok(request, await listEntries(deps.db, seller(request).tenantId, kind)),
    );

    route.post(path, { summary: `Add a ${kind}`, ...named }, async (request) => {
      const entry = await createEntry(deps, seller(request), { kind, name: request.body.name });
      return ok(request, entry, `inventory.${kind}.created`);
    });

    route.put(`${path}/:id`, { summary: `Rename a ${kind}`, params: IdParams, ...named }, async (request) => {
      const entry = await renameEntry(deps, seller(request), {
        kind,
        id: request.params.id,
        name: request.body.name,
      });
      return ok(request, entry, `inventory.${kind}.updated`);
    });

    route.delete(
      `${path}/:id`,
      { summary: `Delete a ${kind} no master code uses`, ...deleted },
      async (request) => {
        const id = await deleteEntry(deps, seller(request), { kind, id: request.params.id });
        return ok(request, { id }, `inventory.${kind}.deleted`);
      },
    );
  }
};
