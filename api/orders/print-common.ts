import type { AwbSource } from '@commands/printing/awb';
import type { PermissionKey } from '@domain/access/permissions';
import { PrintCode } from '@domain/printing/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';

/**
 * What the printing, returns and carrier manifest routes share: tags, dependencies, a file's answer, and who may do
 * what (spec §6 order keys): printing documents, the keys of the people who work the order lists (the one-print
 * limits restrict: commands/printing/print.ts).
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
/** Reading the print settings: whoever prints, or may change them. */
export const PRINT_SETTINGS_READERS: readonly PermissionKey[] = [...PRINT_KEYS, PRINT_SETTINGS_KEY];
export const RETURNS_KEY: PermissionKey = 'orders-view-all';
export const MANIFEST_KEY: PermissionKey = 'orders-manifest-export-v1';

export { attachmentName, fileAnswers, sendFile } from '@api/files';
