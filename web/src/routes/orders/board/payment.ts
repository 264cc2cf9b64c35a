/** How an order is paid, as the board says it: COD, paid (a paid time), or not paid yet. */
export const paymentKey = (order: { cod: boolean; paid_at: string | null }) =>
  order.cod ? 'payment.cod' : order.paid_at ? 'payment.paid' : 'payment.unpaid';
