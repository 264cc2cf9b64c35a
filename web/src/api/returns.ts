import type { OrderLookup, ReturnBody as ReturnRequest, ReturnRow } from '@api/contracts/returns';
import { RETURN_LIMITS } from '@domain/returns/return';
import { RETURNS_VIEW } from '@domain/shared/live-views';
// The print screens' image upload (a body that is the file itself); its home moves with the print helper's hooks.
import { uploadImage } from '@web/api/printing';
import { type Answer, api, apiData } from './client';

export type { ItemCondition, ReturnAction } from '@domain/returns/return';
export { ITEM_CONDITIONS, RETURN_ACTIONS } from '@domain/returns/return';
export type { ReturnRow };
export { RETURNS_VIEW };

/**
 * Returns of marketplace orders (api/orders/returns.ts): the list (a grid endpoint), the order a return is for (by
 * order number or tracking number), recording a return, and its image attachments. Shapes: api/contracts/returns.
 */

export const RETURNS_ENDPOINT = '/api/orders/returns';
export const RETURN_LOOKUP_ENDPOINT = '/api/orders/returns/lookup';
export const RETURN_IMAGES_ENDPOINT = '/api/orders/returns/images';
export const RETURNS_KEY = 'orders-view-all';

export const MAX_IMAGES = RETURN_LIMITS.images;
export const MAX_IMAGE_BYTES = RETURN_LIMITS.imageBytes;

export const returnKeys = {
  all: ['returns'] as const,
  lists: () => [...returnKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...returnKeys.lists(), query] as const,
  detail: (id: string) => [...returnKeys.all, 'detail', id] as const,
  lookup: (q: string) => [...returnKeys.all, 'lookup', q] as const,
};

export type ReturnableOrder = OrderLookup;

/** The form's values: the request, with the choices a person has not made yet left empty. */
export type ReturnBody = Omit<
  ReturnRequest,
  'include_shipping' | 'reversal_item_price' | 'idempotency_key'
> & {
  include_shipping: boolean | null;
  reversal_item_price: string | null;
};

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
