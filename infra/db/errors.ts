/** A Postgres unique (23505) or foreign-key (23503) violation, on the named constraint or index when given. */
export function violation(error: unknown, code: '23505' | '23503', constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const pgError = error as { code?: unknown; constraint?: unknown };
  return pgError.code === code && (constraint === undefined || pgError.constraint === constraint);
}
