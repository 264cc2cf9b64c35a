import { refusals } from '@api/contracts/common';
import { IMAGE_TYPES } from '@domain/shared/images';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';

/**
 * How the routes of uploaded images (a return's, a master code's; commands/support/images.ts keeps them) take the
 * bytes and hand them back: the body is the file itself, whatever it claims to be (the store reads its type from its
 * bytes); an image is answered as the type it was found to be, never sniffed by the browser.
 */

/** Takes image bodies (and unlabelled bytes) as a Buffer, within `maxBytes` and room for a request's overhead. */
export function acceptImageBodies(
  app: Pick<FastifyInstance, 'addContentTypeParser'>,
  maxBytes: number,
): number {
  const bodyLimit = maxBytes + 64 * 1024;
  app.addContentTypeParser(
    [...IMAGE_TYPES, 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit },
    (_request, body, done) => done(null, body),
  );
  return bodyLimit;
}

/** The OpenAPI answers of a route serving an image. */
export const imageAnswers = {
  200: {
    description: 'The image',
    content: { 'image/*': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
  } as never,
  ...refusals,
};

export const UploadedImage = z.object({ id: z.string(), content_type: z.string(), bytes: z.number().int() });

export function sendImage(reply: FastifyReply, image: { content_type: string; data: Buffer }) {
  return reply
    .code(200)
    .header('content-type', image.content_type)
    .header('cache-control', 'private, max-age=3600')
    .header('x-content-type-options', 'nosniff')
    .send(image.data);
}
