import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { ActionAnswer, ActionBody } from '@api/contracts/orders';
import { forbidden } from '@api/errors';
import { conflict, router } from '@api/route';
import { runBoardAction } from '@commands/orders/board-actions';
import { wholeStore } from '@commands/support/document';
import { ACTION_KEYS } from '@domain/orders/board';
import { storesShipping } from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { idempotencyKeyOf, type OrderDeps, tags } from './common';

/**
 * POST /api/orders/actions: an action of spec §4 on one order or many (commands/orders/board-actions.ts), each
 * answering for itself. The route needs one of the actions' keys; each action its own key of ACTION_KEYS, known
 * only once the body is read.
 */
const ACTION_HOLDERS = [...new Set(Object.values(ACTION_KEYS))];

export const orderActionRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const store = wholeStore(deps.store, 'order');
  const shipping = deps.shipping ?? storesShipping(deps.db);
  const route = router(app, { tags, access: { anyOf: ACTION_HOLDERS } });

  route.post(
    '/api/orders/actions',
    {
      summary:
        'Run an action of spec §4 on one or many orders (Idempotency-Key: a retry records nothing twice); each order answers for itself',
      body: ActionBody,
      answer: ActionAnswer,
      errors: conflict,
    },
    async (request, reply) => {
      const { tenantId, userId, permissions } = seller(request);
      const body = request.body;
      if (!permissions.has(ACTION_KEYS[body.action])) throw forbidden();
      const key = idempotencyKeyOf(request, body.idempotency_key);
      const actor = { tenantId, userId, multiStore: permissions.has('orders-multi-store-arrange') };
      const done = await runBoardAction({ db: deps.db, store, shipping }, actor, {
        body,
        key,
        language: request.language,
      });
      if (done.refused) return reply.code(done.refused.status).send(done.refused.answer);
      return ok(request, done.answer, done.message, done.params);
    },
  );
};
