import { PLATFORM_CODES } from '@domain/lookups';
import { type ErrorTable, refuser } from '@domain/shared/errors';
import { TEXT_LIMITS } from '@domain/shared/limits';

/**
 * The storefront and other-platform category trees (spec §3, §5, §8): one tree per seller account and platform,
 * a category at the root or under a parent, never under itself or its own descendants.
 */

/** The marketplaces and storefront platforms of the spec, plus the seller's own web store. */
export const CATEGORY_PLATFORMS = [...PLATFORM_CODES, 'webstore'] as const;
export type CategoryPlatform = (typeof CATEGORY_PLATFORMS)[number];

export const CATEGORY_NAME_MAX_LENGTH = TEXT_LIMITS.name;
/** Minimum category search length (spec §9). */
export const CATEGORY_SEARCH_MIN_LENGTH = 2;

export type CategoryErrorCode = 'NOT_FOUND' | 'PARENT_NOT_FOUND' | 'PARENT_CYCLE';

export const categoryErrors = {
  NOT_FOUND: { status: 404, code: 404, key: 'common.no_record_found' },
  PARENT_NOT_FOUND: { status: 404, code: 404, key: 'category.parent_not_found' },
  PARENT_CYCLE: { status: 409, code: 409, key: 'category.parent_cycle' },
} satisfies ErrorTable<CategoryErrorCode>;

export const refuseCategory = refuser(categoryErrors);
