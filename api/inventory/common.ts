import { seller } from '@api/auth/session';
import { forbidden } from '@api/errors';
import type { ReferenceDeps } from '@commands/inventory/reference-support';
import type { PermissionKey } from '@domain/access/permissions';
import type { FastifyRequest } from 'fastify';

/**
 * What the inventory reference routes share: their dependencies, the id parameter and the read check of the pickers.
 * Field schemas live in api/contracts/inventory/fields.ts, the writes in commands/inventory/.
 */

export type { StockOf } from '@commands/inventory/reference-support';

/** Receives a new master code's initial quantity as stock (api/inventory/stock-common.ts initialStockReceiver). */
export type InitialStock = (
  session: { tenantId: string; userId: string },
  masterCodeId: string,
  quantity: number,
) => Promise<void>;

export interface InventoryDeps extends ReferenceDeps {
  /** Absent (tests of the reference routes alone), the initial quantity is recorded on the master code only. */
  initialStock?: InitialStock;
}

export { IdParams } from '@api/contracts/ids';
export { referenceId } from '@api/contracts/inventory-fields';
export { isUuid } from '@domain/platform/ids';

/**
 * Read routes several screens need (the category, brand, unit and warehouse pickers): any of `keys` will do.
 * The route declares 'seller' and this check runs before the handler.
 */
export function requireAny(keys: readonly PermissionKey[]) {
  return async (request: FastifyRequest) => {
    const session = seller(request);
    if (!keys.some((key) => session.permissions.has(key))) throw forbidden();
  };
}
