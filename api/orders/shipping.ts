import { ok } from '@api/answers';
import { seller } from '@api/auth/session';
import { ShippingAnswer, ShippingQuery } from '@api/contracts/orders';
import { router } from '@api/route';
import { marketplaceOrders } from '@commands/orders/marketplace-shipping';
import { wholeStore } from '@commands/support/document';
import { storesShipping } from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type OrderDeps, tags } from './common';

/** GET /api/orders/shipping (orders-new-order): which orders their marketplace arranges, the pickup addresses. */
export const shippingRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const store = wholeStore(deps.store, 'order');
  const shipping = deps.shipping ?? storesShipping(deps.db);
  const route = router(app, { tags, access: { permission: 'orders-new-order' } });

  route.get(
    '/api/orders/shipping',
    {
      summary:
        'Which of these orders their marketplace arranges (drop-off or pickup, its tracking number), and the pickup addresses it offers',
      query: ShippingQuery,
      answer: ShippingAnswer,
    },
    async (request) =>
      ok(
        request,
        await marketplaceOrders({ store, shipping }, seller(request).tenantId, request.query.order_ids),
      ),
  );
};
