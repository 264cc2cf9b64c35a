import { ErrorAnswer, Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ActionAnswer, ActionBody } from '@api/contracts/orders';
import { refusalAnswer } from '@api/errors';
import { runBoardAction } from '@commands/orders/board-actions';
import { wholeStore } from '@commands/support/document';
import { ACTION_KEYS } from '@domain/orders/board';
import { translate } from '@infra/i18n';
import { storesShipping } from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf, type OrderDeps, requireKey, tags } from './common';

/**
 * POST /api/orders/actions: an action of spec §4 on one order or many (commands/orders/board-actions.ts). Each order
 * answers for itself; when every order was refused the answer is that refusal (4xx, the others in `errors`), so a
 * single-order action fails clearly.
 */

export const orderActionRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const store = wholeStore(deps.store, 'order');
  const shipping = deps.shipping ?? storesShipping(deps.db);

  app.post(
    '/api/orders/actions',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'Run an action of spec §4 on one or many orders (Idempotency-Key: a retry records nothing twice); each order answers for itself',
        body: ActionBody,
        response: { 200: Ok(ActionAnswer), ...refusals, 409: ErrorAnswer },
      },
    },
    async (request, reply) => {
      const session = seller(request);
      const body = request.body;
      requireKey(request, ACTION_KEYS[body.action]);
      const key = idempotencyKeyOf(request, body.idempotency_key);
      const done = await runBoardAction(
        { db: deps.db, store, shipping },
        {
          tenantId: session.tenantId,
          userId: session.userId,
          multiStore: session.permissions.has('orders-multi-store-arrange'),
        },
        { body, key },
      );
      const results = done.map((result) =>
        result.ok
          ? {
              order_id: result.orderId,
              ok: true,
              code: 0,
              msg: translate(request.language, 'common.ok'),
              unchanged: result.unchanged,
              status: 200,
            }
          : {
              order_id: result.orderId,
              ok: false,
              ...refusalAnswer(result.refusal, request.language),
              unchanged: true,
            },
      );
      const succeeded = results.filter((result) => result.ok).length;
      const failed = results.length - succeeded;
      if (succeeded === 0) {
        const first = results[0]!;
        return reply.code(first.status as 400 | 404 | 409).send({
          code: first.code,
          msg: first.msg,
          errors: results.map((result) => ({ path: `order:${result.order_id}`, message: result.msg })),
        } satisfies ErrorAnswer);
      }
      return ok(
        request,
        {
          action: body.action,
          succeeded,
          failed,
          results: results.map(({ status: _status, ...result }) => result),
        },
        failed === 0 ? 'orders.action_done' : 'orders.action_partly_done',
        { succeeded, failed, total: results.length },
      );
    },
  );
};
