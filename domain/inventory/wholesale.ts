import { QUANTITY_MAX } from './codes';

/**
 * Wholesale pricing per master code (spec §2 /inventory/wholesale-pricing; §3 Customer "use wholesale flag"): tiers
 * of a minimum quantity and the unit price from that quantity on. Which sale takes wholesale prices is the
 * customer's flag, decided where the sale is made; these tiers only say what the price is.
 */

export const WHOLESALE_LIMITS = {
  /** Tiers per master code: a price ladder, not a price list per unit. */
  tiers: 20,
  quantityMax: QUANTITY_MAX,
} as const;

export interface WholesaleTier {
  min_quantity: number;
  /** A decimal amount as text ("12.50"), as every price of the house. */
  unit_price: string;
}

export type TierProblem = 'quantity_invalid' | 'quantity_repeated' | 'quantity_not_ascending';

/**
 * What is wrong with the tiers' quantities, every problem at once (index → problem): each a whole number from 1 on
 * (a wholesale customer may pay less from the first piece), strictly ascending so that a reader sees the ladder as it
 * applies, and no quantity twice. An entry that is not a number at all is left to the shape check that names it.
 */
export function tierProblems(tiers: readonly unknown[]): Map<number, TierProblem> {
  const problems = new Map<number, TierProblem>();
  const seen = new Set<number>();
  let highest = 0;
  tiers.forEach((tier, index) => {
    const quantity =
      typeof tier === 'object' && tier !== null && 'min_quantity' in tier ? tier.min_quantity : null;
    if (typeof quantity !== 'number') return;
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > WHOLESALE_LIMITS.quantityMax) {
      problems.set(index, 'quantity_invalid');
    } else if (seen.has(quantity)) {
      problems.set(index, 'quantity_repeated');
    } else if (quantity < highest) {
      problems.set(index, 'quantity_not_ascending');
    }
    if (Number.isInteger(quantity)) {
      seen.add(quantity);
      highest = Math.max(highest, quantity);
    }
  });
  return problems;
}

/**
 * The wholesale unit price of `quantity` pieces: the price of the tier with the highest minimum the quantity reaches,
 * or null when it reaches none (the ordinary unit price applies). The tiers may come in any order.
 */
export function wholesalePrice(tiers: readonly WholesaleTier[], quantity: number): string | null {
  let best: WholesaleTier | null = null;
  for (const tier of tiers) {
    if (tier.min_quantity <= quantity && (best === null || tier.min_quantity > best.min_quantity))
      best = tier;
  }
  return best?.unit_price ?? null;
}
