import type { OrderTab } from '@domain/orders/board';

/**
 * The spec's list routes and the tab each shows. A leaf module: the route table and the alias screen both read it,
 * and the screen importing the route table made the two import each other.
 */
export const ORDER_ALIASES: Record<string, OrderTab> = {
  'new-orders': 'new',
  unscan: 'unscan',
  scanned: 'scan',
  processed: 'rts',
  shipped: 'shipped',
  'cancel-orders': 'cancel',
  'all-orders': 'all',
};
