import type { SellerSession } from '@api/auth/session';
import { forbidden } from '@api/errors';
import type { AwbSource } from '@commands/printing/awb';
import type { PermissionKey } from '@domain/access/permissions';
import { PrintCode } from '@domain/printing/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';

/**
 * What the printing, returns and carrier manifest routes share: result codes 650–679, the OpenAPI tags, their
 * dependencies, and who may do what (spec §6 order keys; the owner holds every key):
 *
 * - printing documents: any of orders-new-order, orders-unscan, orders-view-all, orders-batch,
 *   orders-order-by-task (the people who work the order lists); the one-print limits
 *   orders-awb-one-print-limit / orders-do-one-print-limit restrict (commands/printing/print.ts);
 * - the print log: orders-view-all;
 * - the print settings: seen by any seller user (the console shows them before printing), changed with
 *   orders-customize-delivery-order (the spec's key for customising documents);
 * - returns: orders-view-all (see and create);
 * - carrier manifests: orders-manifest-export-v1 (list, create, export).
 */

export { PrintCode };

export const printTags = ['orders-printing'];
export const returnTags = ['orders-returns'];
export const manifestTags = ['orders-carrier-manifests'];

export interface OrderDocumentsDeps {
  db: Db;
  store: EventStore;
  /** Where air waybills come from; absent: the connected stores (integrations/stores). */
  awb?: AwbSource;
}

export const PRINT_KEYS: readonly PermissionKey[] = [
  'orders-new-order',
  'orders-unscan',
  'orders-view-all',
  'orders-batch',
  'orders-order-by-task',
];
export const PRINT_LOG_KEY: PermissionKey = 'orders-view-all';
export const PRINT_SETTINGS_KEY: PermissionKey = 'orders-customize-delivery-order';
export const RETURNS_KEY: PermissionKey = 'orders-view-all';
export const MANIFEST_KEY: PermissionKey = 'orders-manifest-export-v1';

export function assertMayPrint(session: SellerSession): void {
  if (!PRINT_KEYS.some((key) => session.permissions.has(key))) throw forbidden();
}

/** A file's `Content-Disposition` naming it (ASCII fallback and the UTF-8 name). */
export function attachmentName(name: string, inline = false): string {
  const ascii = name.replace(/[^\w.-]+/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
