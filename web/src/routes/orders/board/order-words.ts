/** How an order is paid, as the board says it: COD, paid (a paid time), or not paid yet. */
export const paymentKey = (order: { cod: boolean; paid_at: string | null }) =>
  order.cod ? 'payment.cod' : order.paid_at ? 'payment.paid' : 'payment.unpaid';

/**
 * The timeline's words for an event: an order accepted or a line mapped reserves stock only for the lines it names
 * (an order whose items are not found reserves nothing, and must not say it did).
 */
export function timelineKey(entry: { type: string; data: Record<string, unknown> }): string {
  const stock = entry.data.stock as { lines?: unknown[] } | null | undefined;
  const reserved = Boolean(stock?.lines?.length);
  if (entry.type === 'OrderAccepted' && !reserved) return 'events.OrderAccepted_nothing_reserved';
  if (entry.type === 'OrderLineMapped' && reserved) return 'events.OrderLineMapped_reserved';
  return `events.${entry.type}`;
}
