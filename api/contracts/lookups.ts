import { z } from 'zod';
import { rule } from './rules';

/** GET /api/lookup/*: the reference tables' answers are domain/lookups' row schemas; the MSIC search pages. */

const MAX_MSIC_PAGE = 1000;

export const MsicQuery = z
  .strictObject({
    search: z.string().max(200).optional(),
    startRow: z.coerce.number().int().min(0).max(100_000).default(0),
    endRow: z.coerce.number().int().min(1).max(100_000).default(100),
  })
  .refine((q) => q.endRow > q.startRow && q.endRow - q.startRow <= MAX_MSIC_PAGE, {
    error: rule(400, 'lookup.bad_range', { max: MAX_MSIC_PAGE }),
    path: ['endRow'],
  });
export type MsicQuery = z.infer<typeof MsicQuery>;
