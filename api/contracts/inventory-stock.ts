import { MASTER_CODE_STATUSES, MASTER_CODE_TYPES, QUANTITY_MAX, StockCode } from '@domain/inventory/codes';
import { HOLD_KINDS, STOCK_EVENT_TYPES, type StockEventType } from '@domain/inventory/stock';
import { TEXT_LIMITS } from '@domain/shared/limits';
import { z } from 'zod';
import { gridQuery, setFilter, TextFilter } from './grid';
import { wholeNumber, wholeNumberText } from './inventory-fields';
import { rule as invalid } from './rules';
import { UPLOAD_STATUSES } from './sheet-uploads';

/** The stock routes' shapes (spec §3 "Stock figures"): available (online) = on hand − reserved − in process − holds. */

export const STOCK_TEXT_MAX = TEXT_LIMITS.reason;

export const quantityInvalid = invalid(StockCode.quantityInvalid, 'stock.quantity_invalid', {
  max: QUANTITY_MAX,
});

/** A whole number of pieces, 1 to QUANTITY_MAX; `set` takes 0 too (checked by the body's refinement). */
export const Quantity = wholeNumber(0, QUANTITY_MAX, quantityInvalid);

const stockText = (max: number) =>
  z
    .string({ error: invalid(400, 'stock.text_invalid') })
    .trim()
    .max(max, invalid(400, 'stock.too_long', { max }));
export const StockText = stockText(STOCK_TEXT_MAX);

/** An id in a body or query; one that is not a uuid is looked up all the same and found missing (404). */
export const RefId = z
  .string({ error: invalid(400, 'stock.id_invalid') })
  .trim()
  .min(1, invalid(400, 'stock.id_invalid'))
  .max(64, invalid(400, 'stock.id_invalid'));

/** An instant in a query: ISO 8601 with a time zone (`2026-01-31T12:00:00Z`), or a bare date (UTC midnight). */
export const Instant = z
  .string({ error: invalid(StockCode.timeInvalid, 'stock.time_invalid') })
  .max(40, invalid(StockCode.timeInvalid, 'stock.time_invalid'))
  .regex(
    /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2}))?$/,
    invalid(StockCode.timeInvalid, 'stock.time_invalid'),
  )
  .transform((text, ctx) => {
    const date = new Date(text.length === 10 ? `${text}T00:00:00Z` : text.replace(' ', 'T'));
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: invalid(StockCode.timeInvalid, 'stock.time_invalid') });
      return z.NEVER;
    }
    return date;
  });

const IDEMPOTENCY_KEY_MAX = 100;
const idempotencyKeyInvalid = invalid(StockCode.keyInvalid, 'stock.idempotency_key_invalid', {
  max: IDEMPOTENCY_KEY_MAX,
});
/** A body's `idempotency_key`: 1 to 100 printable ASCII characters. */
export const IdempotencyKey = z
  .string({ error: idempotencyKeyInvalid })
  .min(1, idempotencyKeyInvalid)
  .max(IDEMPOTENCY_KEY_MAX, idempotencyKeyInvalid)
  .regex(/^[\x21-\x7e]+$/, idempotencyKeyInvalid);

// ---- one movement ----

/** What a movement's `mode` holds: an adjustment's mode, a hold's kind, or where a shipment was taken from. */
export const MOVEMENT_MODES = [
  'add',
  'deduct',
  'set',
  ...HOLD_KINDS,
  'reserved',
  'inProcess',
  'free',
] as const;
export type MovementMode = (typeof MOVEMENT_MODES)[number];

/** Every stock figure after a movement (spec §3 "Stock figures"), as the API names them. */
export const FigureFields = {
  on_hand: z.number().int(),
  reserved: z.number().int(),
  /** Held by orders being picked and packed. */
  in_process: z.number().int(),
  /** Set aside by the seller. */
  on_hold: z.number().int(),
  /** Held by parked Smart POS sales. */
  pos_on_hold: z.number().int(),
  /** Set aside for a supplier. */
  supplier_on_hold: z.number().int(),
  /** Expected from a supplier or in transit; not part of on hand. */
  incoming: z.number().int(),
  available: z.number().int(),
};

export const FigureAnswer = z.object(FigureFields);
export type FigureAnswer = z.infer<typeof FigureAnswer>;

const CodeRef = z.object({ id: z.string(), code: z.string(), name: z.string() });

export const StockMovementAnswer = z.object({
  master_code: CodeRef,
  warehouse: CodeRef,
  action: z.enum(STOCK_EVENT_TYPES),
  mode: z.enum(MOVEMENT_MODES).nullable(),
  /** What was entered: units received, added or deducted, or the counted quantity for `set`. */
  quantity: z.number().int(),
  previous_stock: z.number().int(),
  change: z.number().int(),
  ...FigureFields,
  reason: z.string().nullable(),
  /** The movement's place in its stock's stream, from 0. */
  revision: z.number().int(),
});
export type StockMovementAnswer = z.infer<typeof StockMovementAnswer>;

export const ADJUST_MODES = ['add', 'deduct', 'set'] as const;

const TargetQuery = { master_code_id: RefId, warehouse_id: RefId };
const keyed = { idempotency_key: IdempotencyKey.optional() };

export const ReceiveBody = z.strictObject({
  ...TargetQuery,
  quantity: Quantity.min(1, quantityInvalid),
  reason: StockText.optional(),
  reference: stockText(100).optional(),
  ...keyed,
});

export const AdjustBody = z
  .strictObject({
    ...TargetQuery,
    mode: z.enum(ADJUST_MODES, { error: invalid(StockCode.modeInvalid, 'stock.mode_invalid') }),
    quantity: Quantity,
    reason: StockText.optional(),
    ...keyed,
  })
  .superRefine((body, ctx) => {
    if (body.mode !== 'set' && body.quantity < 1) {
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: quantityInvalid });
    }
  });

export const HOLD_ACTIONS = ['hold', 'release'] as const;

export const HoldBody = z.strictObject({
  ...TargetQuery,
  hold: z.enum(HOLD_KINDS, { error: invalid(StockCode.holdInvalid, 'stock.hold_invalid') }),
  action: z.enum(HOLD_ACTIONS, { error: invalid(StockCode.holdInvalid, 'stock.hold_action_invalid') }),
  quantity: Quantity.min(1, quantityInvalid),
  reason: StockText.optional(),
  ...keyed,
});

export const StockSettings = z.object({
  refuse_negative_manual: z.boolean(),
  updated_at: z.string().nullable(),
});
export const StockSettingsBody = z.strictObject({
  refuse_negative_manual: z.boolean({ error: invalid(400, 'stock.settings.flag_invalid') }),
});

// ---- the stock list ----

/** The stock's own figures besides available: a combo has none (null). */
export const OWN_FIGURES = [
  'on_hand',
  'reserved',
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
] as const;
export type OwnFigure = (typeof OWN_FIGURES)[number];
const ownFiguresOrNull = Object.fromEntries(
  OWN_FIGURES.map((figure) => [figure, z.number().int().nullable()]),
) as {
  [F in OwnFigure]: z.ZodNullable<z.ZodNumber>;
};

export const STOCK_SORT_COLUMNS = [
  'code',
  'name',
  'seller_sku',
  'warehouse',
  'type',
  'status',
  ...OWN_FIGURES,
  'available',
  'available_percent',
  'last_movement_at',
] as const;
export type StockSort = (typeof STOCK_SORT_COLUMNS)[number];

const booleanText = z
  .enum(['true', 'false'], { error: invalid(400, 'stock.flag_invalid') })
  .transform((value) => value === 'true');

export const StockListQuery = gridQuery(STOCK_SORT_COLUMNS, {
  code: TextFilter,
  name: TextFilter,
  seller_sku: TextFilter,
  warehouse: TextFilter,
  type: setFilter(MASTER_CODE_TYPES),
  status: setFilter(MASTER_CODE_STATUSES),
}).extend({
  warehouse_id: RefId.optional(),
  negative_only: booleanText.optional(),
});
export type StockListQuery = z.infer<typeof StockListQuery>;

export const StockRow = z.object({
  key: z.string(),
  master_code_id: z.string(),
  code: z.string(),
  name: z.string(),
  seller_sku: z.string(),
  type: z.enum(MASTER_CODE_TYPES),
  status: z.enum(MASTER_CODE_STATUSES),
  soft_threshold: z.number().int(),
  warehouse_id: z.string(),
  warehouse_code: z.string(),
  warehouse_name: z.string(),
  warehouse_kind: z.enum(['warehouse', 'branch']),
  ...ownFiguresOrNull,
  /** A combo's: from its components. */
  available: z.number().int(),
  /** Available as a percent of on hand, one decimal; null when on hand ≤ 0, and for a combo. */
  available_percent: z.number().nullable(),
  negative: z.boolean(),
  low: z.boolean(),
  last_movement_at: z.string().nullable(),
});
export type StockRow = z.infer<typeof StockRow>;

// ---- movements ----

const actionList = z
  .string({ error: invalid(400, 'stock.action_invalid') })
  .max(400, invalid(400, 'stock.action_invalid'))
  .transform((text, ctx) => {
    const actions = text
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean);
    if (actions.length === 0 || actions.some((action) => !(STOCK_EVENT_TYPES as string[]).includes(action))) {
      ctx.addIssue({ code: 'custom', message: invalid(400, 'stock.action_invalid') });
      return z.NEVER;
    }
    return [...new Set(actions)] as StockEventType[];
  });

const movementFilters = {
  master_code_id: RefId.optional(),
  warehouse_id: RefId.optional(),
  from: Instant.optional(),
  to: Instant.optional(),
  action: actionList.optional(),
};

export const MovementQuery = gridQuery(['occurred_at'], {}).extend(movementFilters);
export type MovementQuery = z.infer<typeof MovementQuery>;

export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
/** A list as a file takes the list's own query, but for its window (every row is written), and the file's format. */
const exportFields = {
  window: { startRow: true, endRow: true },
  format: { format: z.enum(EXPORT_FORMATS, { error: invalid(400, 'stock.export.format_invalid') }) },
} as const;

/** The movement report as a file. */
export const ExportQuery = MovementQuery.omit(exportFields.window).extend(exportFields.format);
export type ExportQuery = z.infer<typeof ExportQuery>;

/** The stock list as a file. */
export const StockExportQuery = StockListQuery.omit(exportFields.window).extend(exportFields.format);
export type StockExportQuery = z.infer<typeof StockExportQuery>;

const { on_hand: _onHand, ...figuresAfter } = FigureFields;
const NamedRef = z.object({ id: z.string(), code: z.string().nullable(), name: z.string().nullable() });

export const MovementRow = z.object({
  id: z.string(),
  master_code: NamedRef,
  warehouse: NamedRef,
  revision: z.number().int(),
  occurred_at: z.string(),
  action: z.enum(STOCK_EVENT_TYPES),
  mode: z.string().nullable(),
  quantity: z.number().int(),
  previous_stock: z.number().int(),
  change: z.number().int(),
  stock_in: z.number().int(),
  stock_out: z.number().int(),
  /** On hand after the movement. */
  new_stock: z.number().int(),
  ...figuresAfter,
  description: z.string().nullable(),
  /** The document behind the movement; `number` is what the seller knows it by (null when it is gone). */
  source: z.object({ type: z.string(), id: z.string(), number: z.string().nullable() }).nullable(),
  counterpart_warehouse: NamedRef.nullable(),
  created_by: z.object({ id: z.string(), name: z.string() }).nullable(),
});
export type MovementRow = z.infer<typeof MovementRow>;

// ---- one stock in time ----

export const AtQuery = z.strictObject({ ...TargetQuery, at: Instant });
export const HistoryQuery = z.strictObject({
  ...TargetQuery,
  until: Instant.optional(),
  limit: wholeNumberText(1, 1000, invalid(400, 'stock.limit_invalid', { max: 1000 })).default(100),
  before_revision: wholeNumberText(
    0,
    Number.MAX_SAFE_INTEGER,
    invalid(400, 'stock.revision_invalid'),
  ).optional(),
});
export const SERIES_MAX_POINTS = 1000;
export const SeriesQuery = z.strictObject({
  ...TargetQuery,
  from: Instant.optional(),
  to: Instant.optional(),
  points: wholeNumberText(
    2,
    SERIES_MAX_POINTS,
    invalid(400, 'stock.points_invalid', { max: SERIES_MAX_POINTS }),
  ).default(200),
});

export const StockFiguresAnswer = z.object({ ...FigureFields, as_of_movement: MovementRow.nullable() });
export const StockHistory = StockFiguresAnswer.extend({
  movements: z.array(MovementRow),
  total: z.number().int(),
});
export const SeriesPoint = z.object({ at: z.string(), ...FigureFields });
export const StockSeries = z.object({
  from: z.string(),
  to: z.string(),
  kind: z.enum(['movements', 'sampled']),
  points: z.array(SeriesPoint),
});

// ---- bulk upload ----

/** A good file accepted: its upload in the history (api/contracts/sheet-uploads.ts), being applied. */
export const StockUploadStarted = z.object({
  upload_id: z.string(),
  status: z.enum(UPLOAD_STATUSES),
  total: z.number().int(),
});
export type StockUploadStarted = z.infer<typeof StockUploadStarted>;

export type ReceiveBody = z.infer<typeof ReceiveBody>;
export type AdjustBody = z.infer<typeof AdjustBody>;
export type HoldBody = z.infer<typeof HoldBody>;
export type StockSettings = z.infer<typeof StockSettings>;
export type StockSettingsBody = z.infer<typeof StockSettingsBody>;
export type AtQuery = z.infer<typeof AtQuery>;
export type HistoryQuery = z.infer<typeof HistoryQuery>;
export type SeriesQuery = z.infer<typeof SeriesQuery>;
export type StockFiguresAnswer = z.infer<typeof StockFiguresAnswer>;
export type StockHistory = z.infer<typeof StockHistory>;
export type SeriesPoint = z.infer<typeof SeriesPoint>;
export type StockSeries = z.infer<typeof StockSeries>;
