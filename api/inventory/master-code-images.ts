/**
 * Master codes' images (spec §3 "Master code": image) stored by the app: upload one (the PNG, JPEG, WebP or GIF
 * itself as the body, checked by its bytes), then name it as the master code's `image_id`; each is served as the type
 * it is, with nosniff, to the account's own users only (another account's id is missing).
 */
import { ErrorAnswer, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import { notFound } from '@api/errors';
import { acceptImageBodies, imageAnswers, sendImage, UploadedImage } from '@api/images';
import { router } from '@api/route';
import { masterCodeImage, uploadMasterCodeImage } from '@commands/inventory/master-code-images';
import { MASTER_CODE_READERS } from '@domain/inventory/readers';
import { MASTER_CODE_IMAGE } from '@domain/inventory/reference';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type InventoryDeps, tags } from './common';

export const masterCodeImageRoutes: FastifyPluginAsyncZod<InventoryDeps> = async (app, { db }) => {
  const route = router(app, { tags, access: { permission: 'inventory-master-code' } });
  const bodyLimit = acceptImageBodies(app, MASTER_CODE_IMAGE.maxBytes);

  route.post(
    '/api/inventory/master-code/images',
    {
      summary: "Upload a master code's image: the PNG, JPEG, WebP or GIF itself as the body (at most 2 MB)",
      bodyLimit,
      answer: UploadedImage,
      errors: { 413: ErrorAnswer, 415: ErrorAnswer },
    },
    async (request) =>
      ok(
        request,
        await uploadMasterCodeImage({ db }, seller(request), request.body),
        'inventory.master_code.image_uploaded',
      ),
  );

  route.get(
    '/api/inventory/master-code/images/:id',
    {
      summary: "A master code's uploaded image",
      access: { anyOf: MASTER_CODE_READERS },
      params: IdParams,
      raw: imageAnswers,
    },
    async (request, reply) => {
      const image = await masterCodeImage(db, seller(request).tenantId, request.params.id);
      if (!image) throw notFound();
      return sendImage(reply, image);
    },
  );
};
