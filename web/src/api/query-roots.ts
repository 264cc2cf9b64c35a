/**
 * The root of a resource's query keys, for the resources whose mutations invalidate each other's queries (a user
 * joins a group, a group's permissions change its users). Each hooks file builds its key factory on its root; the
 * other reads the root from here, so the two hooks files do not import one another.
 */
export const USERS_ROOT = ['users'] as const;
export const GROUPS_ROOT = ['groups'] as const;
