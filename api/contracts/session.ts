import { ACCOUNT_USER_KINDS } from '@domain/access/kinds';
import { PACKAGE_MODULES } from '@domain/access/packages';
import { z } from 'zod';

/**
 * The session calls of spec §7 the console makes after signing in: who am I, my table settings, and the header's
 * usage-limit panel.
 */

export const UserInfo = z.object({
  id: z.string(),
  kind: z.enum([...ACCOUNT_USER_KINDS, 'admin', 'subadmin']),
  username: z.string().nullable(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string(),
  country: z.string().nullable(),
  language: z.string(),
  group: z.object({ id: z.string(), name: z.string() }).nullable(),
  tenant: z
    .object({
      id: z.string(),
      name: z.string(),
      country: z.string(),
      package: z.object({
        id: z.string(),
        name: z.string(),
        /** The modules the package includes (spec §6 package flags): the console shows only their screens. */
        modules: z.array(z.enum(PACKAGE_MODULES)),
      }),
    })
    .nullable(),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** Per-grid column state, keyed by grid id: ag-grid's column state array and anything else a grid keeps. */
export const TableSettings = z.record(
  z.string().max(100),
  z.strictObject({
    columnState: z
      .array(
        z.object({
          colId: z.string().max(100),
          width: z.number().optional(),
          hide: z.boolean().nullable().optional(),
          pinned: z.enum(['left', 'right']).nullable().optional(),
          sort: z.enum(['asc', 'desc']).nullable().optional(),
          sortIndex: z.number().int().nullable().optional(),
          flex: z.number().nullable().optional(),
        }),
      )
      .max(200)
      .optional(),
    pageSize: z.number().int().min(1).max(1000).optional(),
  }),
);
export type TableSettings = z.infer<typeof TableSettings>;

const Usage = z.object({ used: z.number().int(), limit: z.number().int().nullable() });
export const UsageAnswer = z.object({
  package: z.object({ id: z.string(), name: z.string() }),
  /**
   * Orders admitted this calendar month (the account's time zone) against the package's monthly order limit, and
   * the orders held over it (commands/orders/monthly-limit.ts): the shell's banner shows while any are held or the
   * limit is reached.
   */
  monthlyOrders: Usage.extend({ held: z.number().int() }),
  masterCodes: Usage,
  marketplaces: Usage,
  subUsers: Usage,
  branches: Usage,
  dropshipping: z.boolean(),
  supplier: z.boolean(),
  dealerLevel: z.string().nullable(),
  ewalletBalance: z.string(),
});
export type UsageAnswer = z.infer<typeof UsageAnswer>;

export const PermissionMap = z.record(z.string(), z.boolean());
export type PermissionMap = z.infer<typeof PermissionMap>;
