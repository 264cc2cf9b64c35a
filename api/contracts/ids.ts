import { z } from 'zod';

/** A record id in a path: any short string; one that is not a uuid is a record nobody has (404). */
export const IdParams = z.strictObject({ id: z.string().max(64) });
export type IdParams = z.infer<typeof IdParams>;
