import type { Readable } from 'node:stream';
import { refusals } from '@api/contracts/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * What every route that answers a file shares (exports, PDFs, labels, logos): its OpenAPI answers and how the file
 * is sent, so each route names only its media types and its file.
 */

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

/** Sends a file (whole or streamed) the client must not cache. */
export const sendFile = (
  reply: FastifyReply,
  type: string,
  data: Buffer | Readable,
  disposition?: string,
) => {
  reply.code(200).header('content-type', type).header('cache-control', 'no-store');
  if (disposition !== undefined) reply.header('content-disposition', disposition);
  return reply.send(data);
};
