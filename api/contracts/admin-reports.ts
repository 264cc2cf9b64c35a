import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';

/**
 * The provider's reports (/admin-reports/): how the platform is used, across every account. Zod only.
 */

export const TENANT_STATUSES = ['pending', 'active', 'suspended'] as const;

const Count = z.number().int();

export const PlatformSummary = z.object({
  tenants: z.object({
    total: Count,
    /** Accounts created in the last 30 days. */
    new_30_days: Count,
    by_status: z.array(z.object({ status: z.enum(TENANT_STATUSES), tenants: Count })),
    by_package: z.array(z.object({ package_id: z.string(), package: z.string(), tenants: Count })),
  }),
  /** Accounts created on each of the last 30 days (Malaysia's calendar), oldest first, days without any included. */
  sign_ups: z.array(z.object({ day: z.string(), tenants: Count })),
  stores: z.array(z.object({ platform: z.string(), connected: Count, other: Count })),
  /** Orders in each account's current month (its own time zone's calendar): admitted, and held over the limit. */
  orders_this_month: z.object({ admitted: Count, held: Count }),
  users: z.object({ total: Count, signed_in_30_days: Count }),
});
export type PlatformSummary = z.infer<typeof PlatformSummary>;

export const TENANT_USAGE_SORT_COLUMNS = [
  'name',
  'country',
  'package',
  'status',
  'created_at',
  'users',
  'stores',
  'master_codes',
  'orders_this_month',
  'held_this_month',
  'last_sign_in_at',
] as const;

export const TenantUsageQuery = gridQuery(TENANT_USAGE_SORT_COLUMNS, {
  name: TextFilter,
  package: TextFilter,
  status: setFilter(TENANT_STATUSES),
});
export type TenantUsageQuery = z.infer<typeof TenantUsageQuery>;

export const TenantUsage = z.object({
  id: z.string(),
  name: z.string(),
  country: z.string(),
  package_id: z.string(),
  package: z.string(),
  status: z.enum(TENANT_STATUSES),
  created_at: z.string(),
  users: Count,
  /** Connected marketplace stores. */
  stores: Count,
  master_codes: Count,
  orders_this_month: Count,
  held_this_month: Count,
  last_sign_in_at: z.string().nullable(),
});
export type TenantUsage = z.infer<typeof TenantUsage>;
