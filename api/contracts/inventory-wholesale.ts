import { InventoryCode, MASTER_CODE_STATUSES, MASTER_CODE_TYPES } from '@domain/inventory/codes';
import { type TierProblem, tierProblems, WHOLESALE_LIMITS } from '@domain/inventory/wholesale';
import { z } from 'zod';
import { decimal } from './inventory-fields';
import { rule } from './rules';

/**
 * Wholesale pricing per master code (spec §2 /inventory/wholesale-pricing): the tiers of one master code, replaced
 * as a whole. Every bad tier is named at once, each under its own path (`body/tiers/<index>/<field>`).
 */

const tiersInvalid = rule(InventoryCode.quantityInvalid, 'inventory.wholesale.tiers_invalid');
const tooManyTiers = rule(InventoryCode.quantityInvalid, 'inventory.wholesale.too_many_tiers', {
  max: WHOLESALE_LIMITS.tiers,
});
const priceInvalid = rule(InventoryCode.amountInvalid, 'inventory.wholesale.price_invalid');
const problemMessages: Record<TierProblem, string> = {
  quantity_invalid: rule(InventoryCode.quantityInvalid, 'inventory.wholesale.quantity_invalid', {
    max: WHOLESALE_LIMITS.quantityMax,
  }),
  quantity_repeated: rule(InventoryCode.quantityInvalid, 'inventory.wholesale.quantity_repeated'),
  quantity_not_ascending: rule(InventoryCode.quantityInvalid, 'inventory.wholesale.quantity_not_ascending'),
};

export const WholesaleTier = z.strictObject(
  {
    /** Whole, in range, ascending and not repeated: domain/inventory/wholesale.ts says so for the whole list. */
    min_quantity: z.number({ error: problemMessages.quantity_invalid }),
    unit_price: decimal({ scale: 2, integerDigits: 12, positive: true, message: priceInvalid }),
  },
  { error: tiersInvalid },
);

export const WholesaleTiersBody = z.strictObject({
  tiers: z
    .array(WholesaleTier, { error: tiersInvalid })
    .max(WHOLESALE_LIMITS.tiers, tooManyTiers)
    .superRefine(
      (tiers, ctx) => {
        // Also run when a tier's price is bad, so that every problem of the list is answered at once.
        if (!Array.isArray(tiers)) return;
        for (const [index, problem] of tierProblems(tiers)) {
          ctx.addIssue({ code: 'custom', path: [index, 'min_quantity'], message: problemMessages[problem] });
        }
      },
      { when: () => true },
    ),
});
export type WholesaleTiersBody = z.infer<typeof WholesaleTiersBody>;

// ---- answer shapes ----

export const WholesaleTierAnswer = z.object({ min_quantity: z.number().int(), unit_price: z.string() });

/** A master code with its wholesale tiers, lowest minimum first (a row of the grid, or one master code). */
export const WholesalePricing = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(MASTER_CODE_TYPES),
  status: z.enum(MASTER_CODE_STATUSES),
  /** The ordinary unit price, which applies below the first tier. */
  unit_price: z.string(),
  tiers: z.array(WholesaleTierAnswer),
});
export type WholesalePricing = z.infer<typeof WholesalePricing>;
