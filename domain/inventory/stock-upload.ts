import type { ErrorTable } from '../shared/errors';
import { StockCode } from './codes';

/**
 * A bulk stock adjustment file (spec §5 uploads): why a file is refused whole, and the problems of its rows. The
 * file's rows are stock adjustments (./stock.ts decides each); these are the refusals of the file itself.
 */

/** The bulk file's columns, in order. */
export const ADJUSTMENT_COLUMNS = ['master_code', 'warehouse_code', 'mode', 'quantity', 'reason'] as const;

export const FILE_PROBLEMS = [
  'too_large',
  'type',
  'encoding',
  'empty',
  'too_many_rows',
  'unreadable',
  'too_large_unpacked',
] as const;
export type StockFileProblem = (typeof FILE_PROBLEMS)[number];

export const stockFileErrors = {
  too_large: { status: 400, code: StockCode.uploadFile, key: 'stock.upload.file.too_large' },
  type: { status: 400, code: StockCode.uploadFile, key: 'stock.upload.file.type' },
  encoding: { status: 400, code: StockCode.uploadFile, key: 'stock.upload.file.encoding' },
  empty: { status: 400, code: StockCode.uploadFile, key: 'stock.upload.file.empty' },
  too_many_rows: { status: 400, code: StockCode.uploadFile, key: 'stock.upload.file.too_many_rows' },
  unreadable: { status: 400, code: StockCode.uploadFile, key: 'stock.upload.file.unreadable' },
  too_large_unpacked: {
    status: 400,
    code: StockCode.uploadFile,
    key: 'stock.upload.file.too_large_unpacked',
  },
} as const satisfies ErrorTable<StockFileProblem>;

/** A row problem as it is kept (untranslated, so that each reader gets it in their own language). */
export interface RowProblem {
  /** The row's line in the file (the header is 1); 0 for the upload as a whole. */
  row: number;
  column: string | null;
  key: string;
  params: Record<string, string | number>;
}
