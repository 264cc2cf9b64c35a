import { seller } from '@api/auth/session';
import { forbidden, notFound } from '@api/errors';
import type { InitialStock } from '@commands/inventory/initial-stock';
import type { ReferenceDeps } from '@commands/inventory/reference-support';
import type { PermissionKey } from '@domain/access/permissions';
import type { FastifyRequest } from 'fastify';

/** What the inventory reference routes share: their dependencies and the 404 of a record not found. */

export type { StockOf } from '@commands/inventory/reference-support';

export interface InventoryDeps extends ReferenceDeps {
  /** Absent (tests of the reference routes alone), the initial quantity is recorded on the master code only. */
  initialStock?: InitialStock;
}

export const tags = ['inventory'];

/** The record a query found, or 404. */
export async function found<T>(record: Promise<T | undefined>): Promise<T> {
  const value = await record;
  if (value === undefined) throw notFound();
  return value;
}

/** Still used by api/transfers/common.ts (re-exported there); the inventory routes declare `{ anyOf }` instead. */
export function requireAny(keys: readonly PermissionKey[]) {
  return async (request: FastifyRequest) => {
    const session = seller(request);
    if (!keys.some((key) => session.permissions.has(key))) throw forbidden();
  };
}
