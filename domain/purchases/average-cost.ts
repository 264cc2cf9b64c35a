import { divideRounded, fromUnits, toUnits } from './money';

/**
 * The moving average cost of a master code across the tenant's warehouses: each purchase receipt blends its units
 * at their net unit cost into the units already held at the current average; every other movement changes the
 * quantity held and leaves the average as it is (stock leaves, or arrives from a transfer or a count, at the
 * average). Stock below zero (oversold) counts as none held, so a receipt then sets the average to its own cost.
 */

export interface AverageCost {
  /** Units held across the tenant's warehouses, as the movements say (may be negative: oversold). */
  onHand: number;
  /** Four-place decimal text ("12.3457"). */
  average: string;
}

export const NO_COST: AverageCost = { onHand: 0, average: '0.0000' };

/** `quantity` units received at `unitCost` each. */
export function receiveAtCost(current: AverageCost, quantity: number, unitCost: string): AverageCost {
  const held = BigInt(Math.max(current.onHand, 0));
  const units = BigInt(quantity);
  if (units <= 0n) return current;
  const value = held * toUnits(current.average) + units * toUnits(unitCost);
  return { onHand: current.onHand + quantity, average: fromUnits(divideRounded(value, held + units)) };
}

/** A movement that changes the quantity held without a cost of its own. */
export const moveQuantity = (current: AverageCost, change: number): AverageCost => ({
  onHand: current.onHand + change,
  average: current.average,
});
