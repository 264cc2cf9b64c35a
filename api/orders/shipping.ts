import { Ok, ok, refusals } from '@api/answers';
import { seller } from '@api/auth/session';
import { ShippingAnswer, ShippingQuery } from '@api/contracts/orders';
import { marketplaceOrders } from '@commands/orders/marketplace-shipping';
import { wholeStore } from '@commands/support/document';
import { storesShipping } from '@integrations/stores';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { type OrderDeps, requireKey, tags } from './common';

/**
 * GET /api/orders/shipping tells the console which of the chosen orders their marketplace arranges
 * (commands/orders/marketplace-shipping.ts) and offers the shop's pickup addresses.
 */
export const shippingRoutes: FastifyPluginAsyncZod<OrderDeps> = async (app, deps) => {
  const store = wholeStore(deps.store, 'order');
  const shipping = deps.shipping ?? storesShipping(deps.db);

  app.get(
    '/api/orders/shipping',
    {
      config: { access: 'seller' },
      schema: {
        tags,
        summary:
          'Which of these orders their marketplace arranges (drop-off or pickup, its tracking number), and the pickup addresses it offers',
        querystring: ShippingQuery,
        response: { 200: Ok(ShippingAnswer), ...refusals },
      },
    },
    async (request) => {
      requireKey(request, 'orders-new-order');
      const found = await marketplaceOrders(
        { store, shipping },
        seller(request).tenantId,
        request.query.order_ids,
      );
      return ok(request, {
        orders: found.orders.map(({ orderId, marketplace }) => ({ order_id: orderId, marketplace })),
        pickup_addresses: found.pickupAddresses.map((address) => ({
          id: address.id,
          address: address.address,
          is_default: address.isDefault,
        })),
      });
    },
  );
};
