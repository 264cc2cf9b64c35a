import { z } from 'zod';
import { fromCents, toCents } from '../returns/return';
import { type ErrorTable, type FieldRefusal, refusedTogether, refuser } from '../shared/errors';
import { PromotionCode } from './codes';

/**
 * Price control per marketplace (spec §2 "quantity and price control per marketplace"): each store's rule turns a
 * master code's unit price into the price its linked channel SKUs show — a markup in percent and a fixed amount
 * over it, rounded up to an ending (.90, .99, a whole number) — with a price of its own for any SKU the seller
 * overrides. The rule is a stream per store (`priceRule-<tenant>.<store>`); every push of the prices it gives is
 * recorded on the store's push log with its stock pushes (domain/channels/push-log.ts, `field: 'price'`), one
 * event per call with the channel's answer for each SKU.
 */

export const PRICE_RULE_CATEGORY = 'priceRule';
export const priceRuleStreamId = (tenantId: string, storeId: string) =>
  `${PRICE_RULE_CATEGORY}-${tenantId}.${storeId}`;

export const ROUNDINGS = ['none', 'whole', 'ninety', 'ninety_nine'] as const;
export type Rounding = (typeof ROUNDINGS)[number];

export const MARKUP_MIN_PERCENT = -90;
export const MARKUP_MAX_PERCENT = 1000;
export const FIXED_AMOUNT_MAX = '1000000.00';
export const PRICE_OVERRIDES_MAX = 5000;

export interface PriceRule {
  /** Percent over the master code's price (may be negative: a store that sells below the list price). */
  markupPercent: number;
  /** Added after the markup (may be negative), in the store's currency. */
  fixedAmount: string;
  rounding: Rounding;
  /** A price of its own per channel SKU (`itemId:modelId`), the rule left aside. */
  overrides: Record<string, string>;
}

export const DEFAULT_PRICE_RULE: PriceRule = {
  markupPercent: 0,
  fixedAmount: '0.00',
  rounding: 'none',
  overrides: {},
};

const signedCents = (amount: string) =>
  amount.startsWith('-') ? -toCents(amount.slice(1)) : toCents(amount.replace(/^\+/, ''));

/** Rounded up to the ending: 12.34 → 12.90 ("ninety"), 12.95 → 13.90; 12.00 stays 12.00 for "whole". */
function roundedUp(cents: bigint, rounding: Rounding): bigint {
  if (rounding === 'none') return cents;
  const ending = rounding === 'whole' ? 0n : rounding === 'ninety' ? 90n : 99n;
  const candidate = (cents / 100n) * 100n + ending;
  return candidate >= cents ? candidate : candidate + 100n;
}

/**
 * The price a channel SKU should show: its override, else the master code's price with the markup (to the cent,
 * half up), the fixed amount and the rounding. Null when that is not above zero (nothing a channel accepts).
 */
export function channelPrice(masterPrice: string, rule: PriceRule, key?: string): string | null {
  const override = key === undefined ? undefined : rule.overrides[key];
  if (override !== undefined) return toCents(override) > 0n ? fromCents(toCents(override)) : null;
  const base = toCents(masterPrice);
  // Percent in hundredths of a percent keeps a markup like 12.5 % exact.
  const basisPoints = BigInt(Math.round(rule.markupPercent * 100));
  const marked = (base * (10_000n + basisPoints) * 2n + 10_000n) / 20_000n;
  const price = roundedUp(marked + signedCents(rule.fixedAmount), rule.rounding);
  return price > 0n ? fromCents(price) : null;
}

// ---- the rule's refusals ----

export const PRICE_RULE_ERRORS = [
  'PRICE_RULE_INVALID',
  'PRICE_FIXED_INVALID',
  'PRICE_OVERRIDE_INVALID',
  'PRICE_NOTHING_TO_PUSH',
] as const;
export type PriceRuleErrorCode = (typeof PRICE_RULE_ERRORS)[number];

export const priceRuleErrors = {
  PRICE_RULE_INVALID: {
    status: 400,
    code: PromotionCode.priceRuleInvalid,
    key: 'promotions.price_rule_invalid',
  },
  PRICE_FIXED_INVALID: {
    status: 400,
    code: PromotionCode.priceRuleInvalid,
    key: 'promotions.price_fixed_invalid',
  },
  PRICE_OVERRIDE_INVALID: {
    status: 400,
    code: PromotionCode.priceRuleInvalid,
    key: 'promotions.price_override_invalid',
  },
  PRICE_NOTHING_TO_PUSH: {
    status: 400,
    code: PromotionCode.nothingToPush,
    key: 'promotions.nothing_to_push',
  },
} satisfies ErrorTable<PriceRuleErrorCode>;

export const refusePriceRule = refuser(priceRuleErrors);

/** The rule's markup within −90 – 1,000 %, its fixed amount within ± 1,000,000, each override above zero. */
export function checkPriceRule(rule: PriceRule): void {
  const problems: FieldRefusal[] = [];
  if (
    !Number.isFinite(rule.markupPercent) ||
    rule.markupPercent < MARKUP_MIN_PERCENT ||
    rule.markupPercent > MARKUP_MAX_PERCENT
  )
    problems.push({
      field: 'markup_percent',
      error: refusePriceRule('PRICE_RULE_INVALID', { min: MARKUP_MIN_PERCENT, max: MARKUP_MAX_PERCENT }),
    });
  const fixed = signedCents(rule.fixedAmount);
  const limit = toCents(FIXED_AMOUNT_MAX);
  if (fixed > limit || fixed < -limit)
    problems.push({
      field: 'fixed_amount',
      error: refusePriceRule('PRICE_FIXED_INVALID', { max: FIXED_AMOUNT_MAX }),
    });
  for (const [key, price] of Object.entries(rule.overrides))
    if (toCents(price) <= 0n)
      problems.push({
        field: `overrides/${key}`,
        error: refusePriceRule('PRICE_OVERRIDE_INVALID', { sku: key }),
      });
  const refused = refusedTogether(problems);
  if (refused) throw refused;
}

// ---- events ----

const At = z.iso.datetime({ offset: true });
const Money = z.string().regex(/^\d{1,12}(\.\d{1,2})?$/);
const SignedMoney = z.string().regex(/^-?\d{1,12}(\.\d{1,2})?$/);
const Id = z.string().min(1).max(100);

export const PriceRuleSaved = z.strictObject({
  storeId: Id,
  markupPercent: z.number().min(MARKUP_MIN_PERCENT).max(MARKUP_MAX_PERCENT),
  fixedAmount: SignedMoney,
  rounding: z.enum(ROUNDINGS),
  overrides: z.record(z.string().max(201), Money),
  userId: Id,
  at: At,
});

export const pricingEvents = { PriceRuleSaved } as const;
export type PriceRuleSavedData = z.infer<typeof PriceRuleSaved>;
