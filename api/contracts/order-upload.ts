import { z } from 'zod';

/** The manual order bulk upload's answer (POST /api/orders/upload). */
export const OrderUploadResult = z.object({
  /** The upload's record in the upload history (GET /api/orders/upload/:id). */
  upload_id: z.string(),
  created: z.number().int(),
  /** Orders of the file the store already had: left as they are. */
  existing: z.number().int(),
  orders: z.array(z.object({ id: z.string(), order_number: z.string(), created: z.boolean() })),
});
export type OrderUploadResult = z.infer<typeof OrderUploadResult>;
