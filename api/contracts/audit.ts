import { AuditCode } from '@domain/audit/codes';
import { DOCUMENT_KINDS } from '@domain/audit/documents';
import { z } from 'zod';
import { GridQuery } from './common';
import { EXPORT_FORMATS, FigureFields, MovementRow, OWN_FIGURES, RefId } from './inventory-stock';
import { rule as invalid } from './rules';

/**
 * The reports as of a past date (stock balance, stock valuation, open orders, read from the history the read models
 * keep) and the auditor's replay (a stock's or a document's events with the figures or fields before and after
 * each, exportable as a signed CSV). Zod only.
 */

/** Every stock figure, available last, in the order reports and replays show them. */
export const STOCK_FIGURES = [...OWN_FIGURES, 'available'] as const;

// ---- as of a past date ----

const instantInvalid = invalid(AuditCode.instantInvalid, 'audit.as_of_invalid');
/** The instant a report is as of: ISO 8601 with a zone (`2026-01-31T12:00:00Z`), or a bare date (UTC midnight). */
export const AsOf = z
  .string({ error: instantInvalid })
  .max(40, instantInvalid)
  .regex(/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/, instantInvalid)
  .transform((text, ctx) => {
    const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1900) {
      ctx.addIssue({ code: 'custom', message: instantInvalid });
      return z.NEVER;
    }
    return date;
  });

const formatField = {
  format: z.enum(EXPORT_FORMATS, { error: invalid(AuditCode.formatInvalid, 'audit.format_invalid') }),
};

export const AS_OF_STOCK_SORTS = ['code', 'name', 'warehouse', 'on_hand', 'available', 'value'] as const;
const sortModel = <const Sort extends readonly [string, ...string[]]>(sorts: Sort) =>
  GridQuery.shape.sortModel.pipe(
    z.array(z.strictObject({ colId: z.enum(sorts), sort: z.enum(['asc', 'desc']) })),
  );

/** The stock balance or valuation at `at`: every master code × warehouse whose stock had moved by then. */
export const AsOfStockQuery = z.strictObject({
  startRow: GridQuery.shape.startRow,
  endRow: GridQuery.shape.endRow,
  sortModel: sortModel(AS_OF_STOCK_SORTS),
  /** The grid sends its column filters; these reports have none of their own. */
  filterModel: GridQuery.shape.filterModel,
  search: GridQuery.shape.search,
  at: AsOf,
  warehouse_id: RefId.optional(),
});
export type AsOfStockQuery = z.infer<typeof AsOfStockQuery>;
export const AsOfStockExportQuery = AsOfStockQuery.omit({
  startRow: true,
  endRow: true,
  sortModel: true,
}).extend(formatField);
export type AsOfStockExportQuery = z.infer<typeof AsOfStockExportQuery>;

const Named = z.object({ id: z.string(), code: z.string().nullable(), name: z.string().nullable() });

export const AsOfStockRow = z.object({
  id: z.string(),
  master_code: Named,
  warehouse: Named,
  ...FigureFields,
  /** When the stock last moved at or before the instant. */
  last_movement_at: z.string(),
  /** The moving average cost of the master code at the instant (four places; 0 when never received at a cost). */
  average_cost: z.string(),
  /** on hand × average cost (two places). */
  value: z.string(),
});
export type AsOfStockRow = z.infer<typeof AsOfStockRow>;

export const AsOfStockPage = z.object({
  rows: z.array(AsOfStockRow),
  lastRow: z.number().int(),
  at: z.string(),
  totals: z.object({ on_hand: z.number().int(), value: z.string(), stocks: z.number().int() }),
});
export type AsOfStockPage = z.infer<typeof AsOfStockPage>;

export const AS_OF_ORDER_SORTS = ['order_number', 'ordered_at', 'status', 'total_amount'] as const;
export const AsOfOrdersQuery = z.strictObject({
  startRow: GridQuery.shape.startRow,
  endRow: GridQuery.shape.endRow,
  sortModel: sortModel(AS_OF_ORDER_SORTS),
  filterModel: GridQuery.shape.filterModel,
  search: GridQuery.shape.search,
  at: AsOf,
});
export type AsOfOrdersQuery = z.infer<typeof AsOfOrdersQuery>;
export const AsOfOrdersExportQuery = AsOfOrdersQuery.omit({
  startRow: true,
  endRow: true,
  sortModel: true,
}).extend(formatField);
export type AsOfOrdersExportQuery = z.infer<typeof AsOfOrdersExportQuery>;

export const AsOfOrderRow = z.object({
  id: z.string(),
  order_number: z.string(),
  store_id: z.string(),
  platform: z.string(),
  /** The order's status at the instant (one not yet shipped or cancelled then). */
  status: z.string(),
  /** Its status now. */
  status_now: z.string(),
  ordered_at: z.string(),
  imported_at: z.string(),
  currency: z.string(),
  total_amount: z.string(),
  item_count: z.number().int(),
});
export type AsOfOrderRow = z.infer<typeof AsOfOrderRow>;
export const AsOfOrdersPage = z.object({
  rows: z.array(AsOfOrderRow),
  lastRow: z.number().int(),
  at: z.string(),
});
export type AsOfOrdersPage = z.infer<typeof AsOfOrdersPage>;

// ---- the auditor's replay ----

export const REPLAY_PAGE_MAX = 1000;
const pageInvalid = invalid(AuditCode.pageInvalid, 'audit.page_invalid', { max: REPLAY_PAGE_MAX });

export const StockReplayQuery = z.strictObject({
  master_code_id: RefId,
  warehouse_id: RefId,
  /** The first event of the page (its revision in the stock's stream, from 0). */
  from: z.coerce
    .number({ error: pageInvalid })
    .int(pageInvalid)
    .min(0, pageInvalid)
    .max(1e12, pageInvalid)
    .default(0),
  limit: z.coerce
    .number({ error: pageInvalid })
    .int(pageInvalid)
    .min(1, pageInvalid)
    .max(REPLAY_PAGE_MAX, pageInvalid)
    .default(200),
});
export type StockReplayQuery = z.infer<typeof StockReplayQuery>;
export const StockReplayExportQuery = StockReplayQuery.pick({ master_code_id: true, warehouse_id: true });
export type StockReplayExportQuery = z.infer<typeof StockReplayExportQuery>;

const Figures = z.object(FigureFields);
const Who = z.object({ id: z.string(), name: z.string() }).nullable();

export const StockStep = z.object({
  /** The movement: when, what, why, who, the document behind it and every figure after it. */
  movement: MovementRow,
  before: Figures,
  event_id: z.string(),
  /** The command that recorded it. */
  command_id: z.string().nullable(),
  /** Its place in the tenant's log. */
  position: z.string(),
});
export type StockStep = z.infer<typeof StockStep>;

export const StockReplay = z.object({
  master_code: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  warehouse: z.object({ id: z.string(), code: z.string(), name: z.string() }),
  from: z.number().int(),
  steps: z.array(StockStep),
  /** Events after this page. */
  has_more: z.boolean(),
});
export type StockReplay = z.infer<typeof StockReplay>;

export const DocumentKind = z.enum(DOCUMENT_KINDS, {
  error: invalid(AuditCode.idInvalid, 'audit.kind_invalid'),
});
export const DocumentParams = z.strictObject({
  id: z
    .string({ error: invalid(AuditCode.idInvalid, 'audit.id_invalid') })
    .min(1, invalid(AuditCode.idInvalid, 'audit.id_invalid'))
    .max(100, invalid(AuditCode.idInvalid, 'audit.id_invalid'))
    .regex(/^[\w.:-]+$/, invalid(AuditCode.idInvalid, 'audit.id_invalid')),
});

const FieldValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const KeyFields = z.record(z.string(), FieldValue).nullable();

export const DocumentStep = z.object({
  revision: z.number().int(),
  event_id: z.string(),
  type: z.string(),
  occurred_at: z.string(),
  user: Who,
  command_id: z.string().nullable(),
  reason: z.string().nullable(),
  before: KeyFields,
  after: KeyFields,
  changed: z.array(z.string()),
  position: z.string(),
});
export type DocumentStep = z.infer<typeof DocumentStep>;

export const DocumentReplay = z.object({
  kind: DocumentKind,
  id: z.string(),
  steps: z.array(DocumentStep),
});
export type DocumentReplay = z.infer<typeof DocumentReplay>;

// ---- the signed file ----

export const SIGNED_FILE_MAX_BYTES = 20 * 1024 * 1024;
export const VerifyBody = z.strictObject({
  content: z
    .string({ error: invalid(AuditCode.signedFileInvalid, 'audit.signed_file_invalid') })
    .min(1, invalid(AuditCode.signedFileInvalid, 'audit.signed_file_invalid')),
});
export const Verification = z.object({
  /** The rows are those the file was signed with: its SHA-256 matches and so does Kedai's HMAC of it. */
  valid: z.boolean(),
  /** The SHA-256 the file states matches its rows. */
  hash_matches: z.boolean(),
  /** The HMAC-SHA256 the file states is Kedai's for this account (a hash recomputed by a forger fails it). */
  signature_matches: z.boolean(),
  rows: z.number().int(),
  sha256: z.string(),
});
export type Verification = z.infer<typeof Verification>;
