import {
  CATEGORY_NAME_MAX_LENGTH,
  CATEGORY_PLATFORMS,
  CATEGORY_SEARCH_MIN_LENGTH,
} from '@domain/platform/categories';
import { z } from 'zod';
import { noBody } from './ids';
import { rule } from './rules';

/** The category managers' requests and answers: add (410 name required), update (400 missing ID), delete, search. */

export interface CategoryNode {
  id: string;
  name: string;
  parent_id: string | null;
  children: CategoryNode[];
}
export const CategoryNode: z.ZodType<CategoryNode> = z
  .object({
    id: z.string(),
    name: z.string(),
    parent_id: z.string().nullable(),
    get children() {
      return z.array(CategoryNode);
    },
  })
  .meta({ id: 'CategoryNode' });

export const Category = z.object({ id: z.string(), name: z.string(), parent_id: z.string().nullable() });
export type Category = z.infer<typeof Category>;

export const CategoryMatch = Category.extend({
  /** Names from the root down to this category, for showing where a match sits. */
  path: z.array(z.string()),
});
export type CategoryMatch = z.infer<typeof CategoryMatch>;

export const CategoryPlatformParams = z.object({
  platform: z.enum(CATEGORY_PLATFORMS, { error: rule(400, 'category.unknown_platform') }),
});

const nameRequired = rule(410, 'category.name_required');
const CategoryName = z
  .string({ error: nameRequired })
  .trim()
  .min(1, nameRequired)
  .max(CATEGORY_NAME_MAX_LENGTH, rule(410, 'category.name_too_long', { max: CATEGORY_NAME_MAX_LENGTH }));

const missingId = rule(400, 'category.missing_id');
const CategoryId = z
  .string({
    error: (issue) =>
      issue.input === undefined || issue.input === null ? missingId : rule(400, 'category.invalid_id'),
  })
  .trim()
  .min(1, missingId)
  .max(64, rule(400, 'category.invalid_id'));

/** null or absent: at the root. */
const ParentId = z.string().max(64).nullable();

export const AddCategory = z.strictObject(
  { name: CategoryName, parent_id: ParentId.optional() },
  noBody(nameRequired),
);
export type AddCategory = z.infer<typeof AddCategory>;
export const UpdateCategory = z.strictObject(
  { id: CategoryId, name: CategoryName, parent_id: ParentId.optional() },
  noBody(missingId),
);
export type UpdateCategory = z.infer<typeof UpdateCategory>;
export const DeleteCategory = z.strictObject({ id: CategoryId }, noBody(missingId));
export type DeleteCategory = z.infer<typeof DeleteCategory>;
export const DeletedCategory = z.object({ id: z.string(), deleted: z.number().int() });
export type DeletedCategory = z.infer<typeof DeletedCategory>;

export const CategorySearchQuery = z.strictObject({
  q: z
    .string({ error: rule(400, 'common.too_short', { length: CATEGORY_SEARCH_MIN_LENGTH }) })
    .trim()
    .min(CATEGORY_SEARCH_MIN_LENGTH, rule(400, 'common.too_short', { length: CATEGORY_SEARCH_MIN_LENGTH }))
    .max(CATEGORY_NAME_MAX_LENGTH),
});
export type CategorySearchQuery = z.infer<typeof CategorySearchQuery>;
