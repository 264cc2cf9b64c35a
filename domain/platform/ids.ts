/**
 * Record ids are uuids. A value that is not one is simply an id nobody has: it is answered as a missing record
 * rather than let Postgres refuse the cast.
 */

/** The uuid shape, as a POSIX pattern Postgres's `~` and JavaScript both read. */
export const UUID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$';
const UUID = new RegExp(UUID_PATTERN, 'i');
export const isUuid = (value: string) => UUID.test(value);
