import { z } from 'zod';

/**
 * What a package allows: the limits of the header's usage panel (spec §2, "Screens seen only as labels") and the
 * module flags of spec §6. A limit of null is unlimited.
 */
export const PackageLimits = z.strictObject({
  monthlyOrders: z.number().int().min(0).nullable(),
  masterCodes: z.number().int().min(0).nullable(),
  marketplaces: z.number().int().min(0).nullable(),
  subUsers: z.number().int().min(0).nullable(),
  branches: z.number().int().min(0).nullable(),
  dropshipping: z.boolean(),
  supplier: z.boolean(),
  dealerLevel: z.string().max(40).nullable(),
});
export type PackageLimits = z.infer<typeof PackageLimits>;

export const PackageFlags = z.strictObject({
  userLevelModule: z.boolean(),
  chat: z.boolean(),
  smartScan: z.boolean(),
  subsidyModule: z.boolean(),
  downloadModule: z.boolean(),
});
export type PackageFlags = z.infer<typeof PackageFlags>;

export interface PackageDefinition {
  id: string;
  name: string;
  limits: PackageLimits;
  flags: PackageFlags;
}

/** The packages a fresh installation offers; a new registration starts on the trial. */
export const STANDARD_PACKAGES: readonly PackageDefinition[] = [
  {
    id: 'trial',
    name: 'Trial',
    limits: {
      monthlyOrders: 300,
      masterCodes: 500,
      marketplaces: 2,
      subUsers: 2,
      branches: 1,
      dropshipping: false,
      supplier: false,
      dealerLevel: null,
    },
    flags: {
      userLevelModule: true,
      chat: false,
      smartScan: true,
      subsidyModule: false,
      downloadModule: true,
    },
  },
  {
    id: 'growth',
    name: 'Growth',
    limits: {
      monthlyOrders: 5_000,
      masterCodes: 10_000,
      marketplaces: 10,
      subUsers: 10,
      branches: 3,
      dropshipping: true,
      supplier: false,
      dealerLevel: null,
    },
    flags: { userLevelModule: true, chat: true, smartScan: true, subsidyModule: true, downloadModule: true },
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    limits: {
      monthlyOrders: null,
      masterCodes: null,
      marketplaces: null,
      subUsers: 100,
      branches: 50,
      dropshipping: true,
      supplier: true,
      dealerLevel: null,
    },
    flags: { userLevelModule: true, chat: true, smartScan: true, subsidyModule: true, downloadModule: true },
  },
];

export const TRIAL_PACKAGE = 'trial';

/** A module a package may leave out (spec §6 "Package flags gate modules"). */
export type PackageModule = keyof PackageFlags;
export const PACKAGE_MODULES = Object.keys(PackageFlags.shape) as PackageModule[];

/** The modules a package's flags turn on; flags a stored package lacks (or cannot be read) count as off. */
export function modulesOf(flags: unknown): ReadonlySet<PackageModule> {
  const parsed = PackageFlags.partial().safeParse(flags);
  if (!parsed.success) return new Set();
  return new Set(PACKAGE_MODULES.filter((module) => parsed.data[module] === true));
}

/** Refusals of a package's bounds. The spec's catalogue (§8) has none; these follow its pattern (4xx codes). */
export const PackageCode = {
  /** A route of a module the package does not include (HTTP 403). */
  moduleNotIncluded: 450,
} as const;

/** The refusal of a route whose module the package leaves out: its message names the module. */
export const moduleRefusal = (module: PackageModule) => ({
  status: 403,
  code: PackageCode.moduleNotIncluded,
  key: `package.module_not_included.${module}`,
});
