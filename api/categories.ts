import { addCategory, deleteCategory, updateCategory } from '@commands/categories/categories';
import { CATEGORY_SEARCH_MIN_LENGTH } from '@domain/platform/categories';
import type { Db } from '@infra/db';
import { categoryTree, searchCategories } from '@projections/categories/tree';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Ok, ok, refusals } from './answers';
import { seller } from './auth/session';
import {
  AddCategory,
  Category,
  CategoryMatch,
  CategoryNode,
  CategoryPlatformParams,
  CategorySearchQuery,
  DeleteCategory,
  DeletedCategory,
  UpdateCategory,
} from './contracts/categories';

/**
 * The storefront and other-platform category managers (spec §3, §5, §8): add (0 created, 410 name required), update
 * (0 updated, 400 missing ID, 410 name required), delete with its sub-tree (0 deleted, 400 missing ID), and search
 * from 2 characters (§9). Another account's category answers like a missing one.
 */
export const categoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const tags = ['categories'];
  const read = { access: { permission: 'listings-index' } } as const;
  const write = { access: { permission: 'listings-manage' } } as const;

  app.get(
    '/api/category/:platform',
    {
      config: read,
      schema: {
        tags,
        summary: "The platform's category tree, sorted by name",
        params: CategoryPlatformParams,
        response: { 200: Ok(z.array(CategoryNode)), ...refusals },
      },
    },
    async (request) => ok(request, await categoryTree(db, seller(request).tenantId, request.params.platform)),
  );

  app.get(
    '/api/category/:platform/search',
    {
      config: read,
      schema: {
        tags,
        summary: `Categories whose name contains q (at least ${CATEGORY_SEARCH_MIN_LENGTH} characters)`,
        params: CategoryPlatformParams,
        querystring: CategorySearchQuery,
        response: { 200: Ok(z.array(CategoryMatch)), ...refusals },
      },
    },
    async (request) =>
      ok(
        request,
        await searchCategories(db, seller(request).tenantId, request.params.platform, request.query.q),
      ),
  );

  app.post(
    '/api/category/:platform/add',
    {
      config: write,
      schema: {
        tags,
        summary: 'Add a category at the root or under a parent (0 created; 410 name required)',
        params: CategoryPlatformParams,
        body: AddCategory,
        response: { 200: Ok(Category), ...refusals },
      },
    },
    async (request) =>
      ok(
        request,
        await addCategory({ db }, seller(request), { ...request.body, platform: request.params.platform }),
        'category.created',
      ),
  );

  app.post(
    '/api/category/:platform/update',
    {
      config: write,
      schema: {
        tags,
        summary: 'Rename or move a category (0 updated; 400 missing ID; 410 name required)',
        params: CategoryPlatformParams,
        body: UpdateCategory,
        response: { 200: Ok(Category), 409: refusals[400], ...refusals },
      },
    },
    async (request) =>
      ok(
        request,
        await updateCategory({ db }, seller(request), { ...request.body, platform: request.params.platform }),
        'category.updated',
      ),
  );

  app.post(
    '/api/category/:platform/delete',
    {
      config: write,
      schema: {
        tags,
        summary: 'Delete a category and its sub-categories (0 deleted; 400 missing ID)',
        params: CategoryPlatformParams,
        body: DeleteCategory,
        response: { 200: Ok(DeletedCategory), ...refusals },
      },
    },
    async (request) =>
      ok(
        request,
        await deleteCategory({ db }, seller(request), { ...request.body, platform: request.params.platform }),
        'category.deleted',
      ),
  );
};
