/**
 * Returns of marketplace orders (spec §3 "Return", §5; domain/returns, commands/returns): the list, the order a
 * return is for, recording a return (an idempotency key makes a repeat change nothing more: stock moves once), one
 * return, and the images a return attaches. An order of another account behaves as one that does not exist. All
 * routes take orders-view-all.
 */
import { ErrorAnswer, GridPage, ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { IdParams } from '@api/contracts/ids';
import {
  LookupQuery,
  OrderLookup,
  ReturnBody,
  ReturnDetail,
  ReturnRow,
  ReturnsQuery,
} from '@api/contracts/returns';
import { ApiError, notFound } from '@api/errors';
import { idempotencyKeyOf } from '@api/idempotency';
import { acceptImageBodies, imageAnswers, sendImage, UploadedImage } from '@api/images';
import { router } from '@api/route';
import { recordReturn, returnDetail, returnLookup } from '@commands/returns/answers';
import { returnImage, uploadReturnImage } from '@commands/returns/images';
import { isUuid } from '@domain/platform/ids';
import { RETURN_LIMITS } from '@domain/returns/return';
import { listReturns } from '@projections/returns.queries';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type OrderDocumentsDeps, PrintCode, RETURNS_KEY, returnTags as tags } from './print-common';

const keyInvalid = (key: string) => () => new ApiError(400, PrintCode.idempotencyKeyInvalid, key);
const keyRefusals = {
  invalid: keyInvalid('returns.idempotency_key_invalid'),
  mismatch: keyInvalid('returns.idempotency_key_mismatch'),
};

export const returnRoutes: FastifyPluginAsyncZod<OrderDocumentsDeps> = async (app, deps) => {
  const { db } = deps;
  const route = router(app, { tags, access: { permission: RETURNS_KEY } });
  const imageLimit = acceptImageBodies(app, RETURN_LIMITS.imageBytes);

  route.get(
    '/api/orders/returns',
    {
      summary: 'The returns of the account (newest first)',
      query: ReturnsQuery,
      answer: GridPage(ReturnRow),
    },
    async (request) => ok(request, await listReturns(db, seller(request).tenantId, request.query)),
  );

  route.get(
    '/api/orders/returns/lookup',
    {
      summary: 'The order a return is for, by order number or tracking number (or id), with its lines',
      query: LookupQuery,
      answer: OrderLookup,
    },
    async (request) => ok(request, await returnLookup(deps, seller(request).tenantId, request.query)),
  );

  route.post(
    '/api/orders/returns',
    {
      summary:
        'Return a shipped or delivered order: reusable items returned to stock go back into its warehouse; a write-off or an unusable item is recorded only',
      body: ReturnBody,
      answer: ReturnDetail,
      errors: { 409: ErrorAnswer },
    },
    async (request, reply) => {
      const key = idempotencyKeyOf(request, request.body.idempotency_key, keyRefusals);
      const detail = await recordReturn(deps, seller(request), { body: request.body, key });
      if (key) reply.header('idempotency-key', key);
      return ok(request, detail, 'returns.created', { order: detail.order_number });
    },
  );

  route.get(
    '/api/orders/returns/:id',
    {
      summary: 'One return: lines with their condition, what went back to stock, the refund, images',
      params: IdParams,
      answer: ReturnDetail,
    },
    async (request) => {
      if (!isUuid(request.params.id)) throw notFound();
      return ok(request, await returnDetail(deps, seller(request).tenantId, request.params.id));
    },
  );

  route.post(
    '/api/orders/returns/images',
    {
      summary: 'Upload an image for a return: the PNG, JPEG or WebP itself as the body (at most 2 MB)',
      bodyLimit: imageLimit,
      answer: UploadedImage,
      errors: { 413: ErrorAnswer, 415: ErrorAnswer },
    },
    async (request) =>
      ok(request, await uploadReturnImage({ db }, seller(request), request.body), 'returns.image_uploaded'),
  );

  route.get(
    '/api/orders/returns/images/:id',
    {
      summary: 'An image of a return',
      params: IdParams,
      raw: imageAnswers,
    },
    async (request, reply) => {
      const image =
        isUuid(request.params.id) && (await returnImage(db, seller(request).tenantId, request.params.id));
      if (!image) throw notFound();
      return sendImage(reply, image);
    },
  );
};
