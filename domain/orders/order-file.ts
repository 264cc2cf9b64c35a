/**
 * The manual order bulk file (issue 14; spec §6 `orders-upload`, §5 "Bulk upload"): its columns in their fixed order.
 * One order line a row; rows sharing an order number make one order, whose own columns (store to email) are read
 * from its first row. The first REQUIRED_ORDER_COLUMNS columns are required.
 */
export const ORDER_FILE_COLUMNS = [
  'order_number',
  'store',
  'sku',
  'quantity',
  'unit_price',
  'buyer_name',
  'phone',
  'address',
  'city',
  'state',
  'postcode',
  'paid',
  'payment_method',
  'shipping_fee',
  'tracking_number',
  'shipping_provider',
  'buyer_remark',
  'email',
] as const;
export type OrderFileColumn = (typeof ORDER_FILE_COLUMNS)[number];

export const REQUIRED_ORDER_COLUMNS = 11;

/** A payment method that reads as cash on delivery: the order is accepted unpaid. */
export const isCashOnDelivery = (method: string) => /^(cod|cash on delivery)$/i.test(method.trim());
