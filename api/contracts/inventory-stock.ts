import { z } from 'zod';

/** The stock routes' request and answer shapes (api/inventory/stock*.ts); zod only. */

// ---- bulk upload ----

export const StockUploadRowProblem = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type StockUploadRowProblem = z.infer<typeof StockUploadRowProblem>;

export const UPLOAD_STATUSES = ['running', 'done', 'failed'] as const;

export const StockUploadStarted = z.object({
  upload_id: z.string(),
  status: z.enum(UPLOAD_STATUSES),
  total: z.number().int(),
});
export type StockUploadStarted = z.infer<typeof StockUploadStarted>;

export const StockUploadProgress = z.object({
  id: z.string(),
  filename: z.string(),
  status: z.enum(UPLOAD_STATUSES),
  total: z.number().int(),
  applied: z.number().int(),
  replayed: z.number().int(),
  failed: z.number().int(),
  processed: z.number().int(),
  errors: z.array(StockUploadRowProblem),
  message: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type StockUploadProgress = z.infer<typeof StockUploadProgress>;
