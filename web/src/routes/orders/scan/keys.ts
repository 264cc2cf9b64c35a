/**
 * Who may scan (spec §6 orders keys): whoever works the unscan orders, pickers working by task, batch managers. A
 * leaf module read by the route and the screen, so the screen does not import its own route table.
 */
export const SCAN_KEYS = ['orders-unscan', 'orders-order-by-task', 'orders-batch'];
