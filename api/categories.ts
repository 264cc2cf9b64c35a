import { ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
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
} from '@api/contracts/categories';
import { router } from '@api/route';
import { addCategory, deleteCategory, updateCategory } from '@commands/categories/categories';
import { CATEGORY_SEARCH_MIN_LENGTH } from '@domain/platform/categories';
import type { Db } from '@infra/db';
import { categoryTree, searchCategories } from '@projections/categories/tree';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * The storefront and other-platform category managers (spec §3, §5, §8; search from 2 characters, §9): read with
 * listings-index, written with listings-manage. Another account's category answers like a missing one.
 */
export const categoryRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  const route = router(app, { tags: ['categories'], access: { permission: 'listings-index' } });
  const write = { access: { permission: 'listings-manage' }, params: CategoryPlatformParams } as const;

  route.get(
    '/api/category/:platform',
    {
      summary: "The platform's category tree, sorted by name",
      params: CategoryPlatformParams,
      answer: z.array(CategoryNode),
    },
    async (request) => ok(request, await categoryTree(db, seller(request).tenantId, request.params.platform)),
  );

  route.get(
    '/api/category/:platform/search',
    {
      summary: `Categories whose name contains q (at least ${CATEGORY_SEARCH_MIN_LENGTH} characters)`,
      params: CategoryPlatformParams,
      query: CategorySearchQuery,
      answer: z.array(CategoryMatch),
    },
    async (request) => {
      const { tenantId } = seller(request);
      return ok(request, await searchCategories(db, tenantId, request.params.platform, request.query.q));
    },
  );

  route.post(
    '/api/category/:platform/add',
    {
      ...write,
      summary: 'Add a category at the root or under a parent',
      body: AddCategory,
      answer: Category,
    },
    async (request) => {
      const input = { ...request.body, platform: request.params.platform };
      return ok(request, await addCategory({ db }, seller(request), input), 'category.created');
    },
  );

  route.post(
    '/api/category/:platform/update',
    {
      ...write,
      summary: 'Rename or move a category',
      body: UpdateCategory,
      answer: Category,
      errors: { 409: refusals[400] },
    },
    async (request) => {
      const input = { ...request.body, platform: request.params.platform };
      return ok(request, await updateCategory({ db }, seller(request), input), 'category.updated');
    },
  );

  route.post(
    '/api/category/:platform/delete',
    {
      ...write,
      summary: 'Delete a category and its sub-categories',
      body: DeleteCategory,
      answer: DeletedCategory,
    },
    async (request) => {
      const input = { ...request.body, platform: request.params.platform };
      return ok(request, await deleteCategory({ db }, seller(request), input), 'category.deleted');
    },
  );
};
