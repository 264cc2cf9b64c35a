import { ManifestCode, MONTH_PATTERN } from '@domain/orders/carrier-manifest';
import { z } from 'zod';
import { GridPage } from './common';
import { rule } from './rules';

/** Carrier manifests (api/orders/manifests.ts; the console's manifests screen by z.infer). Zod only. */

export const ManifestBody = z.strictObject({
  month: z
    .string({ error: rule(ManifestCode.monthInvalid, 'manifests.month_invalid') })
    .trim()
    .regex(MONTH_PATTERN, rule(ManifestCode.monthInvalid, 'manifests.month_invalid')),
});
export type ManifestBody = z.infer<typeof ManifestBody>;

export const Carrier = z.object({ provider: z.string(), count: z.number().int() });
export type Carrier = z.infer<typeof Carrier>;

export const Manifest = z.object({
  id: z.string(),
  month: z.string(),
  total_shipped: z.number().int(),
  carriers: z.array(Carrier),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Manifest = z.infer<typeof Manifest>;

export const ManifestPage = GridPage(Manifest);
