import { RETURNS_VIEW } from '@domain/shared/live-views';
import { type Answer, api, apiData } from '@web/api/client';
import { uploadImage } from '@web/api/printing';

export { RETURNS_VIEW };

/**
 * Returns of marketplace orders (api/orders/returns.ts): the list, the order a return is for (by order number or
 * tracking number), recording a return, and its image attachments.
 */

export const RETURNS_ENDPOINT = '/api/orders/returns';
export const RETURN_LOOKUP_ENDPOINT = '/api/orders/returns/lookup';
export const RETURN_IMAGES_ENDPOINT = '/api/orders/returns/images';
/** The live view the returns' projection announces changed returns in. */
export const RETURNS_KEY = 'orders-view-all';

export const RETURN_ACTIONS = ['return_to_stock', 'write_off'] as const;
export type ReturnAction = (typeof RETURN_ACTIONS)[number];
export const ITEM_CONDITIONS = ['reusable', 'unusable'] as const;
export type ItemCondition = (typeof ITEM_CONDITIONS)[number];
export const MAX_IMAGES = 5;
export const MAX_IMAGE_BYTES = 2 * 1024 * 1024;
export const TEXT_MAX = 500;

export interface ReturnRow {
  id: string;
  order_id: string;
  order_number: string;
  tracking_number: string | null;
  platform: string;
  action: ReturnAction;
  reason: string;
  refund_to_buyer: string;
  include_shipping: boolean;
  refund_reason: string;
  reversal_item_price: string;
  currency: string;
  line_count: number;
  total_quantity: number;
  restocked_quantity: number;
  image_count: number;
  completed: boolean;
  created_by: { id: string; name: string } | null;
  created_at: string;
}

export interface ReturnableOrder {
  order_id: string;
  order_number: string;
  tracking_number: string | null;
  status: string;
  platform: string;
  currency: string;
  total_amount: string;
  shipping_fee: string | null;
  returnable: boolean;
  return_id: string | null;
  lines: {
    line_id: string;
    sku: string;
    seller_sku: string;
    name: string;
    variation: string | null;
    quantity: number;
    unit_price: string;
    mapped: boolean;
    combo: boolean;
  }[];
}

export interface ReturnBody {
  order_id: string;
  lines: { line_id: string; quantity: number; condition: ItemCondition }[];
  action: ReturnAction;
  reason: string;
  refund_to_buyer: string;
  include_shipping: boolean | null;
  refund_reason: string;
  reversal_item_price: string | null;
  images: string[];
}

export const findReturnableOrder = (q: string) =>
  apiData<ReturnableOrder>(RETURN_LOOKUP_ENDPOINT, { query: { q } });

/** Records the return; the idempotency key makes a resent request (a retry after a timeout) change nothing more. */
export async function createReturn(
  body: ReturnBody,
  idempotencyKey: string,
): Promise<Answer<{ id: string }>> {
  // The include-shipping choice left blank is sent as absent, for the server's "Include shipping is required".
  const { include_shipping, reversal_item_price, ...rest } = body;
  return api<Answer<{ id: string }>>(RETURNS_ENDPOINT, {
    method: 'POST',
    body: {
      ...rest,
      ...(include_shipping === null ? {} : { include_shipping }),
      ...(reversal_item_price ? { reversal_item_price } : {}),
      idempotency_key: idempotencyKey,
    },
  });
}

export const uploadReturnImage = (file: File) =>
  uploadImage<{ id: string; content_type: string; bytes: number }>(RETURN_IMAGES_ENDPOINT, file);
