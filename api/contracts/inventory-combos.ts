import { InventoryCode, MASTER_CODE_STATUSES, QUANTITY_MAX } from '@domain/inventory/codes';
import { z } from 'zod';
import { DateFilter, gridQuery, setFilter, TextFilter } from './grid';
import { referenceId, wholeNumber } from './inventory-fields';
import { ComboItem, MasterCode, newMasterCodeShape } from './inventory-master-codes';
import { rule } from './rules';

/** Combos (spec §3): a combo master code and its items, each a master code and a quantity. */

export const COMBO_ITEMS_MAX = 100;

const quantityInvalid = rule(InventoryCode.quantityInvalid, 'inventory.combo.quantity_invalid');
const itemsRequired = rule(InventoryCode.comboItemsRequired, 'inventory.combo.items_required');
const componentRepeated = rule(InventoryCode.componentRepeated, 'inventory.combo.component_repeated');

export const ComboItemInput = z.strictObject({
  component_id: referenceId,
  quantity: wholeNumber(1, QUANTITY_MAX, quantityInvalid),
});
export type ComboItemInput = z.infer<typeof ComboItemInput>;

export const ComboItems = z
  .array(ComboItemInput, { error: itemsRequired })
  .min(1, itemsRequired)
  .max(
    COMBO_ITEMS_MAX,
    rule(InventoryCode.comboItemsRequired, 'inventory.combo.too_many_items', { max: COMBO_ITEMS_MAX }),
  )
  .superRefine((items, ctx) => {
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const key = item.component_id.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: [index, 'component_id'], message: componentRepeated });
      seen.add(key);
    });
  });

export const ComboItemsBody = z.strictObject({ items: ComboItems }, { error: itemsRequired });

/** A new combo: the master code fields (its type is combo, it has no initial quantity) and its items. */
const { type: _type, initial_quantity: _initialQuantity, ...comboFields } = newMasterCodeShape;
export const NewCombo = z.strictObject({ ...comboFields, items: ComboItems });

export const ComboRow = MasterCode.extend({ items: z.array(ComboItem) });

// ---- the combo grid ----

export const COMBO_SORT_COLUMNS = ['code', 'name', 'status', 'created_at', 'updated_at'] as const;

export const ComboGridQuery = gridQuery(COMBO_SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  status: setFilter(MASTER_CODE_STATUSES),
  updated_at: DateFilter,
});
export type ComboGridQuery = z.infer<typeof ComboGridQuery>;

export type ComboItemsBody = z.infer<typeof ComboItemsBody>;
export type NewCombo = z.infer<typeof NewCombo>;
export type ComboRow = z.infer<typeof ComboRow>;
