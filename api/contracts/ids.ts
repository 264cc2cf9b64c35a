import { z } from 'zod';

/** A record id in a path: any short string; one that is not a uuid is a record nobody has (404). */
export const IdParams = z.strictObject({ id: z.string().max(64) });
export type IdParams = z.infer<typeof IdParams>;

/** The answer of a delete: the id deleted. */
export const DeletedRecord = z.object({ id: z.string() });
export type DeletedRecord = z.infer<typeof DeletedRecord>;

/** A body's options so that with no body at all the refusal is `message` (what the catalogue names missing first). */
export const noBody = (message: string) => ({
  error: (issue: { code?: string; input?: unknown }) =>
    issue.code === 'invalid_type' && issue.input == null ? message : undefined,
});
