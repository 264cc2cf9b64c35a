import { z } from 'zod';

/**
 * Record ids in paths and bodies. A value that is not a uuid is simply an id nobody has: routes answer it as a
 * missing record (404) rather than let Postgres refuse the cast.
 */
export const IdParams = z.strictObject({ id: z.string().max(64) });

/** The uuid shape, as a POSIX pattern Postgres's `~` and JavaScript both read. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const UUID = new RegExp(UUID_PATTERN, 'i');
export const isUuid = (value: string) => UUID.test(value);
