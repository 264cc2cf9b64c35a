import { refusals } from '@api/answers';
import type { AwbSource } from '@commands/printing/awb';
import type { PermissionKey } from '@domain/access/permissions';
import { PrintCode } from '@domain/printing/codes';
import type { Db } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

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

/** A file's `Content-Disposition` naming it (ASCII fallback and the UTF-8 name). */
export function attachmentName(name: string, inline = false): string {
  const ascii = name.replace(/[^\w.-]+/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

const binary = { schema: z.any().meta({ type: 'string', format: 'binary' }) };

/**
 * The answers of a route that sends a file of these media types (`raw` of api/route.ts; an OpenAPI media map, not a
 * zod shape, hence the cast), with the common refusals and `errors`.
 */
export const fileAnswers = (
  description: string,
  types: readonly string[],
  errors: Record<number, z.ZodType> = {},
) => ({
  200: {
    description,
    content: Object.fromEntries(types.map((type) => [type, binary])),
  } as unknown as z.ZodType,
  ...refusals,
  ...errors,
});

/** Sends a file the client must not cache. */
export const sendFile = (reply: FastifyReply, type: string, data: Buffer, disposition?: string) => {
  reply.code(200).header('content-type', type).header('cache-control', 'no-store');
  if (disposition !== undefined) reply.header('content-disposition', disposition);
  return reply.send(data);
};
