import { InventoryCode } from '@domain/inventory/codes';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { nothingToChange, referenceId, requiredText, stamps } from './inventory-fields';

/** The inventory's categories (a tree per account), brands and units. */

export interface InventoryCategoryNode {
  id: string;
  name: string;
  parent_id: string | null;
  master_code_count: number;
  children: InventoryCategoryNode[];
}
export const InventoryCategoryNode: z.ZodType<InventoryCategoryNode> = z
  .object({
    id: z.string(),
    name: z.string(),
    parent_id: z.string().nullable(),
    master_code_count: z.number().int(),
    get children() {
      return z.array(InventoryCategoryNode);
    },
  })
  .meta({ id: 'InventoryCategoryNode' });

export const InventoryCategory = z.object({
  id: z.string(),
  name: z.string(),
  parent_id: z.string().nullable(),
  ...stamps,
});

export const CatalogueEntry = z.object({
  id: z.string(),
  name: z.string(),
  master_code_count: z.number().int(),
  ...stamps,
});
export type CatalogueEntry = z.infer<typeof CatalogueEntry>;

const nameOf = (kind: 'category' | 'brand' | 'unit') =>
  requiredText(TEXT_LIMITS.name, InventoryCode.nameRequired, `inventory.${kind}.name_required`);

export const NewCategory = z.strictObject({
  name: nameOf('category'),
  parent_id: referenceId.nullable().optional(),
});
export const CategoryChanges = NewCategory.partial().refine(
  (changes) => changes.name !== undefined || changes.parent_id !== undefined,
  nothingToChange,
);
export const BrandBody = z.strictObject({ name: nameOf('brand') });
export const UnitBody = z.strictObject({ name: nameOf('unit') });

export type InventoryCategory = z.infer<typeof InventoryCategory>;
export type NewCategory = z.infer<typeof NewCategory>;
export type CategoryChanges = z.infer<typeof CategoryChanges>;
