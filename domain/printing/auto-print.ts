import type { OrderStatus, PrintOrigin } from '@domain/orders/order';

/**
 * The worker auto print station (spec shell.md /orders/worker-auto-print; issue 14): the states an order can reach
 * that start its printing, each with the print log origin (spec §4 "Print log origins") its prints are logged from.
 */
export const AUTO_PRINT_STATES = {
  unscan: 'unscan',
  processed: 'processed',
  shipped: 'shipped',
} as const satisfies Partial<Record<OrderStatus, PrintOrigin>>;
export type AutoPrintState = keyof typeof AUTO_PRINT_STATES;
export const AUTO_PRINT_STATE_LIST = Object.keys(AUTO_PRINT_STATES) as AutoPrintState[];

/** How many orders one claim takes (one PDF a round; the station asks again while there are more). */
export const AUTO_PRINT_BATCH = 50;
