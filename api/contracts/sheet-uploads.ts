import { z } from 'zod';
import { DateFilter, gridQuery, TextFilter } from './grid';

/**
 * The upload history of the bulk files (domains.md §2: stock adjustments, purchases): each upload with who sent it,
 * when, its status and its counts, and its detail with every row refused and why.
 */

/** The spec's statuses, and failed: the file refused whole, rows refused while applying, or the upload stopped. */
export const UPLOAD_STATUSES = ['pending', 'in_progress', 'complete', 'failed'] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

export const UploadRowProblem = z.object({
  row: z.number().int(),
  column: z.string().nullable(),
  message: z.string(),
});
export type UploadRowProblem = z.infer<typeof UploadRowProblem>;

const Uploader = z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable();

export const UPLOAD_SORTS = ['created_at', 'filename', 'status', 'user'] as const;
/** The status is picked beside the grid, so it is a query field; the rest are the columns' own filters. */
export const UploadListQuery = gridQuery(UPLOAD_SORTS, {
  created_at: DateFilter,
  filename: TextFilter,
  /** The uploader's name or e-mail. */
  user: TextFilter,
}).extend({ status: z.enum(UPLOAD_STATUSES).optional() });
export type UploadListQuery = z.infer<typeof UploadListQuery>;

export const UploadSummary = z.object({
  id: z.string(),
  filename: z.string(),
  /** Who uploaded it; null once that user is deleted. */
  user: Uploader,
  status: z.enum(UPLOAD_STATUSES),
  /** The file's data rows. */
  total: z.number().int(),
  applied: z.number().int(),
  /** Rows an earlier upload of the same file had already applied (nothing applied twice). */
  replayed: z.number().int(),
  /** Rows refused: the bad rows of a file refused whole, or the rows refused while applying. */
  failed: z.number().int(),
  /** Applied, replayed or refused so far. */
  processed: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type UploadSummary = z.infer<typeof UploadSummary>;

export const UploadDetail = UploadSummary.extend({
  started_at: z.string().nullable(),
  /** Every row refused, each reason on its own, in the reader's language. */
  errors: z.array(UploadRowProblem),
  /** Why the upload as a whole failed (the file unreadable, its bad rows, or the upload stopped); null otherwise. */
  message: z.string().nullable(),
  /** Whether the original file can be downloaded again (uploads from before the history kept no file). */
  has_file: z.boolean(),
});
export type UploadDetail = z.infer<typeof UploadDetail>;
