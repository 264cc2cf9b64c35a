import { z } from 'zod';
import { DomainError, type ErrorTable, type Refusal, refuser } from '../shared/errors';
import { TEXT_LIMITS } from '../shared/limits';
import { OrderCode } from './codes';
import {
  MARKETPLACE_STATUSES,
  type MarketplaceStatus,
  Money,
  OrderAddress,
  SELLER_CANCEL_REASONS,
  StoredPlatform,
} from './marketplace-order';

/**
 * A marketplace order in the seller's warehouse (spec §3 "Order", §4 order actions and lists). One stream per
 * order (`order-<tenant>.<orderId>`, the id derived from store + order number, so an order imported twice is one
 * order). The marketplace says where the order is (paid, shipped, cancelled…); Kedai's fulfilment state says where
 * it is in the warehouse:
 *
 *   unpaid ──paid──▶ new ──arrange shipment──▶ unscan ──scan──▶ scanned ──RTS──▶ processed ──ship──▶ shipped
 *                     │                          │                 │                                   │
 *                     └──────── cancel / trash (before shipping) ──┘                       delivered, returned, refunded
 *
 * Beside that way: an arranged shipment can be cancelled (back to new, to be arranged again); a step the marketplace
 * refused stays on the order ("process failed") until a step succeeds; a picker is assigned ("waiting assign" until
 * then); a shipped order's items can be sent again as a replacement order, linked to it both ways.
 *
 * Stock follows the order through reactors (commands/orders/stock-reactor.ts): reserved when the order is accepted
 * (paid, or COD), moved to "in process" when it is scanned, shipped out of whichever it is in, released when the
 * order is cancelled or a line is removed. Each event that moves stock names the lines and where their stock is
 * (`stock`), so a reactor needs nothing but the event.
 */

// ---- values ----

export const ORDER_STATUSES = [
  'unpaid',
  'new',
  'unscan',
  'scanned',
  'processed',
  'shipped',
  'delivered',
  'returned',
  'cancelled',
  'refunded',
  'trash',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** Where an order's stock is held: nowhere yet, reserved, in process (scanned), or gone (shipped or released). */
export const STOCK_STAGES = ['none', 'reserved', 'inProcess', 'shipped', 'released'] as const;
export type StockStage = (typeof STOCK_STAGES)[number];

export const PRINT_DOCUMENTS = ['AWB', 'INV', 'PL', 'CL', 'DO'] as const;
export type PrintDocument = (typeof PRINT_DOCUMENTS)[number];
export const PRINT_ORIGINS = ['unscan', 'smart_scan', 'shipped', 'processed'] as const;
export type PrintOrigin = (typeof PRINT_ORIGINS)[number];

const Id = z.string().min(1).max(100);
const Quantity = z.number().int().min(1).max(100_000);
const Instant = z.iso.datetime({ offset: true });
/** The most serial numbers one line records. */
export const MAX_SERIALS = 1000;

export const OrderLine = z.strictObject({
  lineId: Id,
  sku: z.string().max(200),
  sellerSku: z.string().max(200),
  name: z.string().max(500),
  variation: z.string().max(300).optional(),
  quantity: Quantity,
  unitPrice: Money,
  /** The master code the seller SKU maps to; null: "item not found". */
  masterCodeId: Id.nullable(),
  /** The mapped master code is a combo: its components move (commands/inventory/combo.ts). */
  combo: z.boolean(),
  /** Given free (a gift-with-purchase promotion's, or added by hand): priced 0, its stock held like any line's. */
  gift: z.boolean().optional(),
  /** Spec §3 order item "bin number": where the packer put the line's units. */
  binNumber: z.string().max(100).optional(),
  /** Spec §3 order item "serial number": one per unit of a serialised item, at most the quantity. */
  serialNumbers: z.array(z.string().min(1).max(100)).max(MAX_SERIALS).optional(),
});
export type OrderLine = z.infer<typeof OrderLine>;

/** A line's stock as a reactor moves it: the master code (or combo), how many, and where. */
export const StockLine = z.strictObject({
  lineId: Id,
  masterCodeId: Id,
  combo: z.boolean(),
  quantity: Quantity,
});
export type StockLine = z.infer<typeof StockLine>;
const StockMove = z.strictObject({
  warehouseId: Id,
  from: z.enum(STOCK_STAGES),
  lines: z.array(StockLine).max(500),
});
export type StockMove = z.infer<typeof StockMove>;

/** Some of an order's lines, each with a quantity: what a split moves, a return brings back, a replacement sends. */
const LineQuantities = z
  .array(z.strictObject({ lineId: Id, quantity: Quantity }))
  .min(1)
  .max(500);

// ---- events ----

export const OrderImported = z.strictObject({
  orderId: Id,
  storeId: Id,
  platform: StoredPlatform,
  orderNumber: z.string().min(1).max(100),
  marketplaceStatus: z.enum(MARKETPLACE_STATUSES),
  status: z.enum(ORDER_STATUSES),
  warehouseId: Id,
  orderedAt: Instant,
  paidAt: Instant.nullable(),
  marketplaceUpdatedAt: Instant,
  cod: z.boolean(),
  paymentMethod: z.string().max(100),
  currency: z.string().max(3),
  totalAmount: Money,
  shippingFee: Money.optional(),
  buyerUsername: z.string().max(200).optional(),
  buyerRemark: z.string().max(2000).optional(),
  sellerRemark: z.string().max(2000).optional(),
  fulfilmentType: z.string().max(100).optional(),
  /** The marketplace's packages the order ships in; the first is its package number. */
  packageNumbers: z.array(z.string().max(100)).max(50).optional(),
  shippingProvider: z.string().max(TEXT_LIMITS.name).optional(),
  trackingNumber: z.string().max(100).optional(),
  preOrder: z.boolean(),
  address: OrderAddress,
  lines: z.array(OrderLine).min(1).max(500),
  /** A part split off another order: it keeps the parent's state, and its share of the parent's stock. */
  splitFrom: Id.optional(),
  stock: z.enum(STOCK_STAGES).optional(),
  /** A replacement order (spec §4 "replacement"): the order whose items it sends again, at no charge. */
  replacementOf: Id.optional(),
});
/** The marketplace changed the order: the fields it changed, as they are now. */
export const OrderSynced = z.strictObject({
  marketplaceStatus: z.enum(MARKETPLACE_STATUSES),
  marketplaceUpdatedAt: Instant,
  paidAt: Instant.nullable().optional(),
  shippingProvider: z.string().max(TEXT_LIMITS.name).optional(),
  trackingNumber: z.string().max(100).optional(),
  address: OrderAddress.optional(),
});
/** Paid (or cash on delivery): the order enters the warehouse's work and its mapped lines are reserved. */
export const OrderAccepted = z.strictObject({ stock: StockMove });
export const OrderLineMapped = z.strictObject({
  lineId: Id,
  masterCodeId: Id,
  combo: z.boolean(),
  /** Reserved now (the order was already accepted). */
  stock: StockMove.nullable(),
  /** A mapping changed while its stock was reserved: what the line held under its former master code, released. */
  released: StockMove.nullable().optional(),
});
/** A line taken off the order because it cannot be fulfilled (spec §4's two out-of-stock choices). */
export const OrderLineRemoved = z.strictObject({
  lineId: Id,
  mark: z.enum(['out_of_stock', 'stockable']),
  stock: StockMove.nullable(),
});
export const OrderShipmentArranged = z.strictObject({
  trackingNumber: z.string().min(1).max(100),
  shippingProvider: z.string().max(TEXT_LIMITS.name),
  rearranged: z.boolean(),
});
export const OrderPickupRequested = z.strictObject({
  provider: z.string().min(1).max(TEXT_LIMITS.name),
  pickupAddress: z.string().min(1).max(1000),
  pickupDay: z.enum(['today', 'after_1_day', 'after_2_days']),
  pickupTime: z.enum(['none', 'earliest', 'latest']),
});
export const OrderMoved = z.strictObject({
  from: z.enum(ORDER_STATUSES),
  to: z.enum(ORDER_STATUSES),
  /** The action of spec §4 that moved it. */
  action: z.enum([
    'put_back_to_new',
    'move_to_unscan',
    'move_to_trash',
    'undo_scan',
    'reset_scan',
    'reset',
    'mark_processed',
    'set_delivered',
    'set_refunded',
  ]),
  /** Stock the move changes (a put back from scanned stops processing; trash releases). */
  stock: StockMove.nullable(),
});
export const OrderScanned = z.strictObject({ batchId: Id.optional(), stock: StockMove.nullable() });
export const OrderShipped = z.strictObject({ stock: StockMove.nullable(), byMarketplace: z.boolean() });
export const OrderCancelled = z.strictObject({
  reason: z.string().max(500).optional(),
  byMarketplace: z.boolean(),
  stock: StockMove.nullable(),
});
export const OrderReturned = z.strictObject({
  returnId: Id,
  lines: LineQuantities,
});
export const OrderPrinted = z.strictObject({
  document: z.enum(PRINT_DOCUMENTS),
  origin: z.enum(PRINT_ORIGINS),
});
export const OrderPreviewSet = z.strictObject({ preview: z.boolean() });
export const OrderAddressChanged = z.strictObject({ address: OrderAddress });
export const OrderBatched = z.strictObject({ batchId: Id.nullable() });
/** Lines (or part of their quantity) moved to a new order; their stock stays where it is, held by the new one. */
export const OrderSplit = z.strictObject({
  childOrderId: Id,
  lines: LineQuantities,
});

/**
 * Spec §4 "cancel third-party shipment": the shipment arranged with the carrier is cancelled, and the order is back
 * where it was before it was arranged (pending process), to be arranged again; stock being picked is reserved again.
 */
export const OrderShipmentCancelled = z.strictObject({
  trackingNumber: z.string().max(100),
  shippingProvider: z.string().max(TEXT_LIMITS.name),
  from: z.enum(ORDER_STATUSES),
  stock: StockMove.nullable(),
});

/** The steps whose refusal by the marketplace leaves an order "process failed" (spec §4), to be tried again. */
export const PROCESS_STEPS = ['arrange_shipment', 'request_pickup', 'cancel', 'cancel_shipment'] as const;
export type ProcessStep = (typeof PROCESS_STEPS)[number];
const PickupDayValue = z.enum(['today', 'after_1_day', 'after_2_days']);
const PickupTimeValue = z.enum(['none', 'earliest', 'latest']);
/** What the failed step asked for, so that trying again asks the same. */
export const ProcessRequest = z.discriminatedUnion('step', [
  z.strictObject({
    step: z.literal('arrange_shipment'),
    trackingNumber: z.string().max(100),
    shippingProvider: z.string().max(TEXT_LIMITS.name),
  }),
  z.strictObject({
    step: z.literal('request_pickup'),
    provider: z.string().max(TEXT_LIMITS.name),
    pickupAddress: z.string().max(1000),
    pickupAddressId: z.number().int().optional(),
    pickupDay: PickupDayValue,
    pickupTime: PickupTimeValue,
  }),
  z.strictObject({
    step: z.literal('cancel'),
    reason: z.string().max(500).optional(),
    marketplaceReason: z.enum(SELLER_CANCEL_REASONS),
  }),
  z.strictObject({ step: z.literal('cancel_shipment') }),
]);
export type ProcessRequest = z.infer<typeof ProcessRequest>;
/**
 * The marketplace refused a step of the order's processing: the request, and the refusal as it was answered (its
 * result code, message key and parameters, so each reader sees it in their own language).
 */
export const OrderProcessFailed = z.strictObject({
  request: ProcessRequest,
  code: z.number().int(),
  key: z.string().max(200),
  params: z.record(z.string().max(100), z.union([z.string().max(2000), z.number()])),
});
export type ProcessFailure = z.infer<typeof OrderProcessFailed>;
/** The picker who picks and packs the order (null: nobody, "waiting assign" again). */
export const OrderPickerAssigned = z.strictObject({ pickerId: Id.nullable() });
/** A replacement order was made for some of this order's items (spec §4 "replacement"). */
export const OrderReplaced = z.strictObject({
  replacementOrderId: Id,
  lines: LineQuantities,
});

/** A free gift added to the order by hand; reserved at once when the order's stock is. */
export const OrderGiftAdded = z.strictObject({ line: OrderLine, stock: StockMove.nullable() });
/** The bin and serial numbers of a line, as recorded at packing or scanning (each replaces the former). */
export const OrderLineDetailsRecorded = z.strictObject({
  lineId: Id,
  binNumber: z.string().max(100).nullable(),
  serialNumbers: z.array(z.string().min(1).max(100)).max(MAX_SERIALS),
});

/**
 * The stock reactor found too little stock for these lines when it reserved them (available went below zero): the
 * order is "out of stock" until the lines are removed (spec §4's two choices) or the order leaves the warehouse.
 */
export const OrderStockShort = z.strictObject({ lines: z.array(Id).min(1).max(500) });

/**
 * Over the package's monthly order limit (issue 14): the order is kept, but held out of the warehouse's work (no
 * stock reserved, no batch, print or scan) until a later month or a larger package lets it in
 * (commands/orders/monthly-limit.ts). `month` is the calendar month, in the account's time zone, that was full.
 */
export const OrderHeld = z.strictObject({
  reason: z.literal('monthly_order_limit'),
  month: z.string().regex(/^\d{4}-\d{2}$/),
});
/** The hold ends: the order counts in `month` and goes on as if it had just arrived (accepted when paid or COD). */
export const OrderReleased = z.strictObject({ month: z.string().regex(/^\d{4}-\d{2}$/) });

export const orderEvents = {
  OrderImported,
  OrderSynced,
  OrderAccepted,
  OrderLineMapped,
  OrderLineRemoved,
  OrderShipmentArranged,
  OrderPickupRequested,
  OrderMoved,
  OrderScanned,
  OrderShipped,
  OrderCancelled,
  OrderReturned,
  OrderPrinted,
  OrderPreviewSet,
  OrderAddressChanged,
  OrderBatched,
  OrderSplit,
  OrderStockShort,
  OrderShipmentCancelled,
  OrderProcessFailed,
  OrderPickerAssigned,
  OrderReplaced,
  OrderGiftAdded,
  OrderLineDetailsRecorded,
  OrderHeld,
  OrderReleased,
} as const;
export type OrderEventType = keyof typeof orderEvents;
export type OrderEvent = {
  [Type in OrderEventType]: { type: Type; data: z.infer<(typeof orderEvents)[Type]> };
}[OrderEventType];
export const ORDER_EVENT_TYPES = Object.keys(orderEvents) as OrderEventType[];

// ---- state ----

/** What an order was imported with, as it stands now (the address may change): what a split-off part copies. */
export type OrderDetails = Omit<
  z.infer<typeof OrderImported>,
  'lines' | 'status' | 'stock' | 'splitFrom' | 'replacementOf'
>;

/** Before its import: no order (the state every stream starts from). */
export interface NoOrder {
  status: 'none';
}

/** An order Kedai knows, in one of its fulfilment statuses. */
export interface PlacedOrder {
  orderId: string;
  orderNumber: string;
  storeId: string;
  status: OrderStatus;
  marketplaceStatus: MarketplaceStatus | null;
  marketplaceUpdatedAt: string | null;
  warehouseId: string;
  paidAt: string | null;
  cod: boolean;
  preOrder: boolean;
  trackingNumber: string | null;
  shippingProvider: string | null;
  lines: OrderLine[];
  /** Lines taken off the order (out of stock). */
  removed: string[];
  /** Lines the stock reactor found short when it reserved them ("out of stock"). */
  short: string[];
  stock: StockStage;
  printed: PrintDocument[];
  batchId: string | null;
  preview: boolean;
  returned: boolean;
  /** Parts split off this order so far (numbers the next one). */
  splits: number;
  splitFrom: string | null;
  details: OrderDetails;
  // Optional: folded orders stored before these existed (the board's `state`) lack them.
  /** The order this one replaces. */
  replacementOf?: string;
  /** Replacement orders made for this one. */
  replacements?: string[];
  /** The step the marketplace last refused ("process failed"), until a step succeeds or the order leaves. */
  failure?: ProcessFailure | null;
  /** The picker assigned to it ("waiting assign" while none is). */
  pickerId?: string | null;
  /** Held over the monthly order limit (absent on states stored before holds existed). */
  onHold?: boolean;
}

/** An order's state, keyed on its status: none until it is imported. */
export type OrderState = NoOrder | PlacedOrder;

export const initialState: OrderState = { status: 'none' };

/** The order Kedai knows (undefined before its import). */
export const placed = (state: OrderState): PlacedOrder | undefined =>
  state.status === 'none' ? undefined : state;

/** The lines still on the order (not removed). */
export const activeLines = (state: Pick<PlacedOrder, 'lines' | 'removed'>): OrderLine[] =>
  state.lines.filter((line) => !state.removed.includes(line.lineId));

/** The lines whose stock an order holds: mapped, not removed. */
export function stockLines(state: Pick<PlacedOrder, 'lines' | 'removed'>): StockLine[] {
  return activeLines(state)
    .filter((line) => line.masterCodeId !== null)
    .map((line) => ({
      lineId: line.lineId,
      masterCodeId: line.masterCodeId as string,
      combo: line.combo,
      quantity: line.quantity,
    }));
}

const HELD: readonly StockStage[] = ['reserved', 'inProcess'];

/** Statuses an order may be cancelled, moved or scanned in: before it leaves the warehouse. */
export const OPEN: readonly OrderStatus[] = ['unpaid', 'new', 'unscan', 'scanned', 'processed'];
/** Accepted and not yet gone: where the warehouse works on an order. */
const IN_WAREHOUSE: readonly OrderStatus[] = ['new', 'unscan', 'scanned', 'processed'];

/**
 * The problem flags of the order lists (spec §4 "item not found", "out of stock", "pre-order"): a line mapped to no
 * master code; a line the reactor found short, while the order is still to be fulfilled; a marketplace pre-order.
 */
export function orderFlags(state: PlacedOrder): {
  itemNotFound: boolean;
  outOfStock: boolean;
  preOrder: boolean;
} {
  const lines = activeLines(state);
  return {
    itemNotFound: lines.some((line) => line.masterCodeId === null),
    outOfStock: OPEN.includes(state.status) && lines.some((line) => state.short.includes(line.lineId)),
    preOrder: state.preOrder,
  };
}

/**
 * The lists' "held: monthly order limit reached": held and still waiting (a held order cancelled or trashed
 * meanwhile has nothing left to release).
 */
export const waitingOnHold = (state: PlacedOrder): boolean =>
  state.onHold === true && state.status === 'unpaid';

/** The order an import makes. */
function importedOrder(data: z.infer<typeof OrderImported>): PlacedOrder {
  const { lines, status, stock, splitFrom, replacementOf, ...details } = data;
  return {
    orderId: details.orderId,
    orderNumber: details.orderNumber,
    storeId: details.storeId,
    status,
    marketplaceStatus: details.marketplaceStatus,
    marketplaceUpdatedAt: details.marketplaceUpdatedAt,
    warehouseId: details.warehouseId,
    paidAt: details.paidAt,
    cod: details.cod,
    preOrder: details.preOrder,
    trackingNumber: details.trackingNumber ?? null,
    shippingProvider: details.shippingProvider ?? null,
    lines,
    removed: [],
    short: [],
    stock: stock ?? 'none',
    printed: [],
    batchId: null,
    preview: false,
    returned: false,
    splits: 0,
    splitFrom: splitFrom ?? null,
    details,
    ...(replacementOf ? { replacementOf } : {}),
  };
}

export function evolve(state: OrderState, event: OrderEvent): OrderState {
  if (event.type === 'OrderImported') return importedOrder(event.data);
  // Events of an order whose import was never seen (none should be) change nothing.
  if (state.status === 'none') return state;
  return applied(state, event);
}

/** An event on an order Kedai knows. */
function applied(state: PlacedOrder, event: Exclude<OrderEvent, { type: 'OrderImported' }>): PlacedOrder {
  switch (event.type) {
    case 'OrderSynced': {
      const d = event.data;
      return {
        ...state,
        marketplaceStatus: d.marketplaceStatus,
        marketplaceUpdatedAt: d.marketplaceUpdatedAt,
        ...(d.paidAt !== undefined ? { paidAt: d.paidAt } : {}),
        ...(d.trackingNumber !== undefined ? { trackingNumber: d.trackingNumber } : {}),
        ...(d.shippingProvider !== undefined ? { shippingProvider: d.shippingProvider } : {}),
        ...(d.address ? { details: { ...state.details, address: d.address } } : {}),
      };
    }
    case 'OrderAccepted':
      return { ...state, status: 'new', stock: 'reserved' };
    case 'OrderLineMapped':
      return {
        ...state,
        lines: state.lines.map((line) =>
          line.lineId === event.data.lineId
            ? { ...line, masterCodeId: event.data.masterCodeId, combo: event.data.combo }
            : line,
        ),
        short: state.short.filter((lineId) => lineId !== event.data.lineId),
      };
    case 'OrderLineRemoved':
      return {
        ...state,
        removed: [...state.removed, event.data.lineId],
        short: state.short.filter((lineId) => lineId !== event.data.lineId),
      };
    case 'OrderShipmentArranged':
      return {
        ...state,
        status: state.status === 'new' ? 'unscan' : state.status,
        trackingNumber: event.data.trackingNumber,
        shippingProvider: event.data.shippingProvider,
        failure: null,
      };
    case 'OrderPickupRequested':
      return state;
    case 'OrderMoved': {
      const stock =
        event.data.to === 'trash' && HELD.includes(state.stock)
          ? 'released'
          : state.stock === 'inProcess' && (event.data.to === 'new' || event.data.to === 'unscan')
            ? 'reserved'
            : state.stock;
      // A reset starts the order over: its shipment is to be arranged again.
      const shipment = event.data.action === 'reset' ? { trackingNumber: null, shippingProvider: null } : {};
      return { ...state, status: event.data.to, stock, ...shipment };
    }
    case 'OrderScanned':
      return {
        ...state,
        status: 'scanned',
        stock: state.stock === 'reserved' ? 'inProcess' : state.stock,
        batchId: event.data.batchId ?? state.batchId,
      };
    case 'OrderShipped':
      return {
        ...state,
        status: 'shipped',
        stock: HELD.includes(state.stock) ? 'shipped' : state.stock,
        failure: null,
      };
    case 'OrderCancelled':
      return {
        ...state,
        status: 'cancelled',
        stock: HELD.includes(state.stock) ? 'released' : state.stock,
        failure: null,
      };
    case 'OrderReturned':
      return { ...state, status: 'returned', returned: true };
    case 'OrderPrinted':
      return state.printed.includes(event.data.document)
        ? state
        : { ...state, printed: [...state.printed, event.data.document] };
    case 'OrderPreviewSet':
      return { ...state, preview: event.data.preview };
    case 'OrderAddressChanged':
      return { ...state, details: { ...state.details, address: event.data.address } };
    case 'OrderBatched':
      return { ...state, batchId: event.data.batchId };
    case 'OrderSplit': {
      const moved = new Map<string, number>();
      for (const line of event.data.lines)
        moved.set(line.lineId, (moved.get(line.lineId) ?? 0) + line.quantity);
      return {
        ...state,
        splits: state.splits + 1,
        lines: state.lines
          .map((line) => ({ ...line, quantity: line.quantity - (moved.get(line.lineId) ?? 0) }))
          .filter((line) => line.quantity > 0),
      };
    }
    case 'OrderStockShort':
      return {
        ...state,
        short: [...state.short, ...event.data.lines.filter((lineId) => !state.short.includes(lineId))],
      };
    case 'OrderShipmentCancelled':
      return {
        ...state,
        status: 'new',
        stock: state.stock === 'inProcess' ? 'reserved' : state.stock,
        trackingNumber: null,
        shippingProvider: null,
        failure: null,
      };
    case 'OrderProcessFailed':
      return { ...state, failure: event.data };
    case 'OrderPickerAssigned':
      return { ...state, pickerId: event.data.pickerId };
    case 'OrderReplaced':
      return { ...state, replacements: [...(state.replacements ?? []), event.data.replacementOrderId] };
    case 'OrderGiftAdded':
      return { ...state, lines: [...state.lines, event.data.line] };
    case 'OrderLineDetailsRecorded': {
      const { lineId, binNumber, serialNumbers } = event.data;
      return {
        ...state,
        lines: state.lines.map((line) => {
          if (line.lineId !== lineId) return line;
          const { binNumber: _bin, serialNumbers: _serials, ...rest } = line;
          return {
            ...rest,
            ...(binNumber ? { binNumber } : {}),
            ...(serialNumbers.length > 0 ? { serialNumbers } : {}),
          };
        }),
      };
    }
    case 'OrderHeld':
      return { ...state, onHold: true };
    case 'OrderReleased':
      return { ...state, onHold: false };
    default: {
      const unknown: never = event;
      throw new Error(`unknown order event ${(unknown as { type: string }).type}`);
    }
  }
}

// ---- commands ----

export type ImportOrderData = Omit<z.infer<typeof OrderImported>, 'status' | 'stock' | 'splitFrom'>;
export type MoveAction = z.infer<typeof OrderMoved>['action'];
export type PickupDay = z.infer<typeof OrderPickupRequested>['pickupDay'];
export type PickupTime = z.infer<typeof OrderPickupRequested>['pickupTime'];

export type OrderCommand =
  | {
      type: 'ImportOrder';
      order: ImportOrderData;
      /** Over the monthly order limit: imported, and held (the full month, `yyyy-mm`). */
      holdFor?: string;
      /** A part split off another order: the parent, and the state and stock stage it inherits. */
      split?: { from: string; status: OrderStatus; stock: StockStage };
    }
  | {
      type: 'SyncOrder';
      marketplaceStatus: MarketplaceStatus;
      marketplaceUpdatedAt: string;
      paidAt: string | null;
      shippingProvider?: string;
      trackingNumber?: string;
    }
  | { type: 'MapLine'; lineId: string; masterCodeId: string; combo: boolean }
  | { type: 'RemoveLine'; lineId: string; mark: 'out_of_stock' | 'stockable' }
  | { type: 'ArrangeShipment'; trackingNumber: string; shippingProvider: string }
  | {
      type: 'RequestPickup';
      provider: string;
      pickupAddress: string;
      pickupDay: PickupDay;
      pickupTime: PickupTime;
    }
  | { type: 'MoveOrder'; action: MoveAction }
  | { type: 'ScanOrder'; batchId?: string }
  | { type: 'ShipOrder'; byMarketplace: boolean }
  | { type: 'CancelOrder'; reason?: string; byMarketplace: boolean }
  | { type: 'ReturnOrder'; returnId: string; lines: { lineId: string; quantity: number }[] }
  | { type: 'MarkPrinted'; document: PrintDocument; origin: PrintOrigin }
  | { type: 'SetPreview'; preview: boolean }
  | { type: 'ChangeAddress'; address: z.infer<typeof OrderAddress> }
  | { type: 'AssignBatch'; batchId: string | null }
  | { type: 'SplitOrder'; childOrderId: string; lines: { lineId: string; quantity: number }[] }
  /** The stock reactor: these lines' reservation took available stock below zero. */
  | { type: 'MarkOutOfStock'; lineIds: string[] }
  | { type: 'CancelShipment' }
  | { type: 'RecordProcessFailure'; failure: ProcessFailure }
  | { type: 'AssignPicker'; pickerId: string | null }
  | { type: 'ReplaceOrder'; replacementOrderId: string; lines: { lineId: string; quantity: number }[] }
  /** A free gift by hand: a master code, how many; its line id made by the caller. */
  | {
      type: 'AddGift';
      line: Pick<OrderLine, 'lineId' | 'sku' | 'sellerSku' | 'name' | 'quantity' | 'combo'> & {
        masterCodeId: string;
      };
    }
  | { type: 'RecordLineDetails'; lineId: string; binNumber: string | null; serialNumbers: string[] }
  /** One more serial number on a line, as the packer scans it (the line's others and its bin kept). */
  | { type: 'AddSerialNumber'; lineId: string; serialNumber: string }
  /** The monthly order limit lets a held order in, counted in `month`. */
  | { type: 'ReleaseHold'; month: string };

export const ORDER_ERRORS = [
  'ORDER_NOT_FOUND',
  'ORDER_EXISTS',
  'WRONG_STATUS',
  'ALREADY_SHIPPED',
  'LINE_NOT_FOUND',
  'LAST_LINE',
  'SPLIT_NOTHING',
  'SPLIT_EVERYTHING',
  'QUANTITY_INVALID',
  'TRACKING_REQUIRED',
  'PICKUP_DETAILS_REQUIRED',
  'NOT_SHIPPED',
  'MASTER_CODE_NOT_FOUND',
  'NO_SHIPMENT',
  'NOTHING_TO_RETRY',
  'REPLACEMENT_NOTHING',
  'REPLACEMENT_QUANTITY_INVALID',
  'PICKER_NOT_FOUND',
  'SERIALS_TOO_MANY',
  'SERIAL_DUPLICATE',
  'ORDER_ON_HOLD',
] as const;
export type OrderErrorCode = (typeof ORDER_ERRORS)[number];

/** How each refusal answers (a `status` param names the order's status; the message words it). */
export const orderErrors = {
  ORDER_NOT_FOUND: { status: 404, code: OrderCode.orderNotFound, key: 'orders.order_not_found' },
  ORDER_EXISTS: { status: 409, code: OrderCode.wrongStatus, key: 'orders.order_exists' },
  WRONG_STATUS: { status: 409, code: OrderCode.wrongStatus, key: 'orders.wrong_status' },
  ALREADY_SHIPPED: { status: 409, code: OrderCode.alreadyShipped, key: 'orders.already_shipped' },
  LINE_NOT_FOUND: { status: 404, code: OrderCode.lineNotFound, key: 'orders.line_not_found' },
  LAST_LINE: { status: 409, code: OrderCode.lastLine, key: 'orders.last_line' },
  SPLIT_NOTHING: { status: 400, code: OrderCode.splitNothing, key: 'orders.split_nothing' },
  SPLIT_EVERYTHING: { status: 400, code: OrderCode.splitEverything, key: 'orders.split_everything' },
  QUANTITY_INVALID: { status: 400, code: OrderCode.quantityInvalid, key: 'orders.quantity_invalid' },
  TRACKING_REQUIRED: { status: 400, code: OrderCode.trackingRequired, key: 'orders.tracking_required' },
  PICKUP_DETAILS_REQUIRED: {
    status: 400,
    code: OrderCode.pickupDetailsRequired,
    key: 'orders.pickup_details_required',
  },
  NOT_SHIPPED: { status: 409, code: OrderCode.wrongStatus, key: 'orders.not_shipped' },
  /** A line mapped to a master code the account does not have (checked by the command that maps it). */
  MASTER_CODE_NOT_FOUND: {
    status: 404,
    code: OrderCode.masterCodeNotFound,
    key: 'orders.master_code_not_found',
  },
  NO_SHIPMENT: { status: 409, code: OrderCode.noShipment, key: 'orders.no_shipment' },
  NOTHING_TO_RETRY: { status: 409, code: OrderCode.nothingToRetry, key: 'orders.nothing_to_retry' },
  REPLACEMENT_NOTHING: {
    status: 400,
    code: OrderCode.replacementNothing,
    key: 'orders.replacement_nothing',
  },
  REPLACEMENT_QUANTITY_INVALID: {
    status: 400,
    code: OrderCode.quantityInvalid,
    key: 'orders.replacement_quantity_invalid',
  },
  /** A picker who is not a user of the account (checked by the command that assigns). */
  PICKER_NOT_FOUND: { status: 404, code: OrderCode.pickerNotFound, key: 'orders.picker_not_found' },
  /** More serial numbers than the line has units. */
  SERIALS_TOO_MANY: { status: 400, code: OrderCode.serialsTooMany, key: 'orders.serials_too_many' },
  /** A serial number given twice on one order (two units cannot share one). */
  SERIAL_DUPLICATE: { status: 400, code: OrderCode.serialDuplicate, key: 'orders.serial_duplicate' },
  /** Held over the monthly order limit: not printed until it is released. */
  ORDER_ON_HOLD: { status: 409, code: OrderCode.wrongStatus, key: 'orders.order_on_hold' },
} satisfies ErrorTable<OrderErrorCode>;

export const refuse = refuser(orderErrors);

/** Spec §8 "Pickup request failed": a pickup asked of an order past (or before) the point a carrier collects it. */
const pickupFailed: Refusal = { status: 409, code: OrderCode.pickupFailed, key: 'orders.pickup_failed' };

/** Which fulfilment state a marketplace status puts a newly imported order in. */
export function initialStatus(order: Pick<ImportOrderData, 'marketplaceStatus'>): OrderStatus {
  if (order.marketplaceStatus === 'cancelled' || order.marketplaceStatus === 'in_cancel') return 'cancelled';
  if (order.marketplaceStatus === 'shipped' || order.marketplaceStatus === 'to_return') return 'shipped';
  if (order.marketplaceStatus === 'completed') return 'delivered';
  return 'unpaid';
}

const accepts = (order: { paidAt: string | null; cod: boolean }) => order.paidAt !== null || order.cod;

/**
 * The actions of spec §4 that move an order between lists, and the lists each starts from. "Reset" starts the order
 * over (its shipment is arranged again); "put back to new" keeps the shipment.
 */
export const MOVES: Record<MoveAction, { from: readonly OrderStatus[]; to: OrderStatus }> = {
  put_back_to_new: { from: ['unscan', 'scanned', 'processed'], to: 'new' },
  move_to_unscan: { from: ['new'], to: 'unscan' },
  move_to_trash: { from: ['unpaid', 'new', 'unscan'], to: 'trash' },
  undo_scan: { from: ['scanned'], to: 'unscan' },
  reset_scan: { from: ['unscan', 'scanned'], to: 'unscan' },
  reset: { from: ['unscan', 'scanned', 'processed'], to: 'new' },
  mark_processed: { from: ['scanned'], to: 'processed' },
  set_delivered: { from: ['shipped'], to: 'delivered' },
  set_refunded: { from: ['shipped', 'delivered', 'returned', 'cancelled'], to: 'refunded' },
};

function held(state: PlacedOrder, lines = stockLines(state)): StockMove | null {
  return HELD.includes(state.stock) && lines.length > 0
    ? { warehouseId: state.warehouseId, from: state.stock, lines }
    : null;
}

/** Refused for the order's status: the message names it. */
const wrong = (state: PlacedOrder, action: string) =>
  refuse('WRONG_STATUS', { status: state.status, action });

/** A line still on the order. */
function activeLine(state: PlacedOrder, lineId: string): OrderLine {
  const line = activeLines(state).find((l) => l.lineId === lineId);
  if (!line) throw refuse('LINE_NOT_FOUND', { lineId });
  return line;
}

export function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  if (command.type === 'ImportOrder') {
    if (state.status !== 'none') throw refuse('ORDER_EXISTS');
    if (command.split) {
      const { from, status, stock } = command.split;
      return [{ type: 'OrderImported', data: { ...command.order, status, splitFrom: from, stock } }];
    }
    // An order first seen already shipped or finished shipped before Kedai knew it: its stock is not moved now.
    const status = initialStatus(command.order);
    const imported: OrderEvent = { type: 'OrderImported', data: { ...command.order, status } };
    // Only an order still to be fulfilled is held; one first seen finished has no work to hold.
    if (command.holdFor && status === 'unpaid') {
      return [
        imported,
        { type: 'OrderHeld', data: { reason: 'monthly_order_limit', month: command.holdFor } },
      ];
    }
    if (status !== 'unpaid' || !accepts(command.order)) return [imported];
    const after = importedOrder(imported.data);
    return [
      imported,
      {
        type: 'OrderAccepted',
        data: { stock: { warehouseId: after.warehouseId, from: 'none', lines: stockLines(after) } },
      },
    ];
  }
  if (state.status === 'none') throw refuse('ORDER_NOT_FOUND');
  switch (command.type) {
    case 'SyncOrder':
      return decideSync(command, state);
    case 'MapLine':
    case 'RemoveLine':
    case 'SplitOrder':
    case 'MarkOutOfStock':
      return decideLines(command, state);
    case 'AddGift':
    case 'RecordLineDetails':
    case 'AddSerialNumber':
      return decidePacking(command, state);
    case 'ReleaseHold':
      return decideRelease(command, state);
    case 'ArrangeShipment':
    case 'RequestPickup':
    case 'ShipOrder':
      return decideShipment(command, state);
    case 'MoveOrder':
    case 'ScanOrder':
    case 'CancelOrder':
    case 'ReturnOrder':
      return decideFlow(command, state);
    case 'MarkPrinted':
    case 'SetPreview':
    case 'ChangeAddress':
    case 'AssignBatch':
      return decideMarks(command, state);
    case 'CancelShipment':
    case 'RecordProcessFailure':
    case 'AssignPicker':
    case 'ReplaceOrder':
      return decideFollowUp(command, state);
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/**
 * A held order let in (the release is retried until it is recorded: one already released records nothing). Still
 * unpaid and paid (or COD) it is accepted now, reserving its stock, as an import would have done.
 */
function decideRelease(
  command: Extract<OrderCommand, { type: 'ReleaseHold' }>,
  state: PlacedOrder,
): OrderEvent[] {
  if (!state.onHold) return [];
  const released = { type: 'OrderReleased' as const, data: { month: command.month } };
  const next = applied(state, released);
  if (next.status !== 'unpaid' || !accepts(next)) return [released];
  return [
    released,
    {
      type: 'OrderAccepted',
      data: { stock: { warehouseId: next.warehouseId, from: 'none', lines: stockLines(next) } },
    },
  ];
}

/** The marketplace changed the order: what it means in the warehouse (accepted, cancelled, shipped, delivered). */
function decideSync(command: Extract<OrderCommand, { type: 'SyncOrder' }>, state: PlacedOrder): OrderEvent[] {
  const events: Exclude<OrderEvent, { type: 'OrderImported' }>[] = [];
  const changed =
    command.marketplaceStatus !== state.marketplaceStatus ||
    command.paidAt !== state.paidAt ||
    (command.trackingNumber !== undefined && command.trackingNumber !== state.trackingNumber) ||
    (command.shippingProvider !== undefined && command.shippingProvider !== state.shippingProvider);
  if (!changed) return [];
  events.push({
    type: 'OrderSynced',
    data: {
      marketplaceStatus: command.marketplaceStatus,
      marketplaceUpdatedAt: command.marketplaceUpdatedAt,
      ...(command.paidAt !== state.paidAt ? { paidAt: command.paidAt } : {}),
      ...(command.trackingNumber !== undefined ? { trackingNumber: command.trackingNumber } : {}),
      ...(command.shippingProvider !== undefined ? { shippingProvider: command.shippingProvider } : {}),
    },
  });
  let next = applied(state, events[0]!);
  const cancelled = command.marketplaceStatus === 'cancelled' || command.marketplaceStatus === 'in_cancel';
  if (cancelled && OPEN.includes(next.status)) {
    const event = {
      type: 'OrderCancelled' as const,
      data: { byMarketplace: true, stock: held(next) },
    };
    events.push(event);
    next = applied(next, event);
  } else if (next.status === 'unpaid' && accepts(next) && !next.onHold) {
    const event = {
      type: 'OrderAccepted' as const,
      data: { stock: { warehouseId: next.warehouseId, from: 'none' as const, lines: stockLines(next) } },
    };
    events.push(event);
    next = applied(next, event);
  }
  if (
    (command.marketplaceStatus === 'shipped' || command.marketplaceStatus === 'completed') &&
    IN_WAREHOUSE.includes(next.status)
  ) {
    const event = { type: 'OrderShipped' as const, data: { byMarketplace: true, stock: held(next) } };
    events.push(event);
    next = applied(next, event);
  }
  if (command.marketplaceStatus === 'completed' && next.status === 'shipped') {
    events.push({
      type: 'OrderMoved',
      data: { from: 'shipped', to: 'delivered', action: 'set_delivered', stock: null },
    });
  }
  return events;
}

/** The order's lines: mapped to a master code, removed, split off to a new order, found short. */
function decideLines(
  command: Extract<OrderCommand, { type: 'MapLine' | 'RemoveLine' | 'SplitOrder' | 'MarkOutOfStock' }>,
  state: PlacedOrder,
): OrderEvent[] {
  switch (command.type) {
    case 'MapLine': {
      const line = activeLine(state, command.lineId);
      if (!OPEN.includes(state.status)) throw wrong(state, command.type);
      // A line being picked cannot change what it is; one whose stock is held cannot silently drop its reservation.
      if (state.stock === 'inProcess') throw wrong(state, command.type);
      if (line.masterCodeId === command.masterCodeId && line.combo === command.combo) return [];
      const reserveNow = state.stock === 'reserved';
      // A changed mapping gives back what the former master code held before the new one is reserved.
      const released: StockMove | null =
        reserveNow && line.masterCodeId !== null
          ? {
              warehouseId: state.warehouseId,
              from: 'reserved',
              lines: [
                {
                  lineId: line.lineId,
                  masterCodeId: line.masterCodeId,
                  combo: line.combo,
                  quantity: line.quantity,
                },
              ],
            }
          : null;
      return [
        {
          type: 'OrderLineMapped',
          data: {
            lineId: line.lineId,
            masterCodeId: command.masterCodeId,
            combo: command.combo,
            stock: reserveNow
              ? {
                  warehouseId: state.warehouseId,
                  from: 'none',
                  lines: [
                    {
                      lineId: line.lineId,
                      masterCodeId: command.masterCodeId,
                      combo: command.combo,
                      quantity: line.quantity,
                    },
                  ],
                }
              : null,
            ...(released ? { released } : {}),
          },
        },
      ];
    }
    case 'RemoveLine': {
      const line = activeLine(state, command.lineId);
      if (!OPEN.includes(state.status)) throw wrong(state, command.type);
      // The last line is not removed: the order is cancelled instead.
      if (activeLines(state).length === 1) throw refuse('LAST_LINE', { lineId: line.lineId });
      const mine = stockLines(state).filter((l) => l.lineId === line.lineId);
      return [
        {
          type: 'OrderLineRemoved',
          data: { lineId: line.lineId, mark: command.mark, stock: held(state, mine) },
        },
      ];
    }
    case 'SplitOrder': {
      if (!['unpaid', 'new', 'unscan'].includes(state.status)) throw wrong(state, command.type);
      // A part would start free of the hold and slip past the limit.
      if (state.onHold) throw refuse('ORDER_ON_HOLD');
      const live = activeLines(state);
      const remaining = live.reduce((sum, line) => sum + line.quantity, 0);
      // The same line named twice counts once, with both quantities.
      const parts = new Map<string, number>();
      for (const part of command.lines) {
        if (!Number.isInteger(part.quantity) || part.quantity < 1) {
          throw refuse('QUANTITY_INVALID', {
            lineId: part.lineId,
            max: live.find((l) => l.lineId === part.lineId)?.quantity ?? 0,
          });
        }
        parts.set(part.lineId, (parts.get(part.lineId) ?? 0) + part.quantity);
      }
      let moving = 0;
      for (const [lineId, quantity] of parts) {
        const line = activeLine(state, lineId);
        if (quantity > line.quantity) throw refuse('QUANTITY_INVALID', { lineId, max: line.quantity });
        moving += quantity;
      }
      if (moving === 0) throw refuse('SPLIT_NOTHING');
      if (moving >= remaining) throw refuse('SPLIT_EVERYTHING');
      return [
        {
          type: 'OrderSplit',
          data: {
            childOrderId: command.childOrderId,
            lines: [...parts].map(([lineId, quantity]) => ({ lineId, quantity })),
          },
        },
      ];
    }
    case 'MarkOutOfStock': {
      // Late news is dropped, not refused: the order may have moved on since the reservation.
      if (!OPEN.includes(state.status)) return [];
      const lines = activeLines(state)
        .map((line) => line.lineId)
        .filter((lineId) => command.lineIds.includes(lineId) && !state.short.includes(lineId));
      return lines.length > 0 ? [{ type: 'OrderStockShort', data: { lines } }] : [];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/** What the packer adds to the order: a free gift, a line's bin and serial numbers. */
function decidePacking(
  command: Extract<OrderCommand, { type: 'AddGift' | 'RecordLineDetails' | 'AddSerialNumber' }>,
  state: PlacedOrder,
): OrderEvent[] {
  switch (command.type) {
    case 'AddGift': {
      // Before picking ends: a gift added to a scanned order would never be picked.
      if (!['unpaid', 'new', 'unscan'].includes(state.status)) throw wrong(state, command.type);
      if (state.lines.some((line) => line.lineId === command.line.lineId)) return [];
      const line: OrderLine = { ...command.line, unitPrice: '0.00', gift: true };
      const stock: StockMove | null =
        state.stock === 'reserved'
          ? {
              warehouseId: state.warehouseId,
              from: 'none',
              lines: [
                {
                  lineId: line.lineId,
                  masterCodeId: command.line.masterCodeId,
                  combo: line.combo,
                  quantity: line.quantity,
                },
              ],
            }
          : null;
      return [{ type: 'OrderGiftAdded', data: { line, stock } }];
    }
    case 'RecordLineDetails': {
      const line = activeLine(state, command.lineId);
      if (!OPEN.includes(state.status)) throw wrong(state, command.type);
      const binNumber = command.binNumber?.trim() || null;
      const serialNumbers = command.serialNumbers.map((serial) => serial.trim()).filter(Boolean);
      if (serialNumbers.length > line.quantity) {
        throw refuse('SERIALS_TOO_MANY', { lineId: line.lineId, max: line.quantity });
      }
      const taken = new Set(
        activeLines(state)
          .filter((other) => other.lineId !== line.lineId)
          .flatMap((other) => other.serialNumbers ?? []),
      );
      for (const serial of serialNumbers) {
        if (taken.has(serial)) throw refuse('SERIAL_DUPLICATE', { serial });
        taken.add(serial);
      }
      const unchanged =
        binNumber === (line.binNumber ?? null) &&
        serialNumbers.join('\n') === (line.serialNumbers ?? []).join('\n');
      if (unchanged) return [];
      return [{ type: 'OrderLineDetailsRecorded', data: { lineId: line.lineId, binNumber, serialNumbers } }];
    }
    case 'AddSerialNumber': {
      // Decided on the line as stored, so two scans in quick succession each add theirs (596 and 597 apply).
      const line = activeLine(state, command.lineId);
      return decidePacking(
        {
          type: 'RecordLineDetails',
          lineId: line.lineId,
          binNumber: line.binNumber ?? null,
          serialNumbers: [...(line.serialNumbers ?? []), command.serialNumber],
        },
        state,
      );
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/** The shipment: arranged (tracking number), a pickup requested, shipped. */
function decideShipment(
  command: Extract<OrderCommand, { type: 'ArrangeShipment' | 'RequestPickup' | 'ShipOrder' }>,
  state: PlacedOrder,
): OrderEvent[] {
  switch (command.type) {
    case 'ArrangeShipment': {
      const trackingNumber = command.trackingNumber.trim();
      if (!trackingNumber) throw refuse('TRACKING_REQUIRED');
      if (!IN_WAREHOUSE.includes(state.status)) throw wrong(state, command.type);
      const shippingProvider = command.shippingProvider.trim();
      if (trackingNumber === state.trackingNumber && shippingProvider === state.shippingProvider) {
        // Arranged already as asked: nothing to record, but a new order still moves on to unscan.
        return state.status === 'new'
          ? [
              {
                type: 'OrderShipmentArranged',
                data: { trackingNumber, shippingProvider, rearranged: false },
              },
            ]
          : [];
      }
      return [
        {
          type: 'OrderShipmentArranged',
          data: { trackingNumber, shippingProvider, rearranged: state.trackingNumber !== null },
        },
      ];
    }
    case 'RequestPickup': {
      const provider = command.provider.trim();
      const pickupAddress = command.pickupAddress.trim();
      // Spec §5: "A logistics provider and a pickup address must be chosen before requesting pickup."
      if (!provider || !pickupAddress) throw refuse('PICKUP_DETAILS_REQUIRED');
      if (!IN_WAREHOUSE.includes(state.status)) {
        throw new DomainError<OrderErrorCode>('WRONG_STATUS', { status: state.status }, pickupFailed);
      }
      return [
        {
          type: 'OrderPickupRequested',
          data: { provider, pickupAddress, pickupDay: command.pickupDay, pickupTime: command.pickupTime },
        },
      ];
    }
    case 'ShipOrder':
      if (state.status === 'shipped') throw refuse('ALREADY_SHIPPED');
      if (!IN_WAREHOUSE.includes(state.status)) throw wrong(state, command.type);
      return [{ type: 'OrderShipped', data: { byMarketplace: command.byMarketplace, stock: held(state) } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/** The order's way through the lists of spec §4: moved, scanned, cancelled, returned. */
function decideFlow(
  command: Extract<OrderCommand, { type: 'MoveOrder' | 'ScanOrder' | 'CancelOrder' | 'ReturnOrder' }>,
  state: PlacedOrder,
): OrderEvent[] {
  switch (command.type) {
    case 'MoveOrder': {
      const move = MOVES[command.action];
      if (!move.from.includes(state.status)) throw wrong(state, command.type);
      const to = move.to;
      const stock =
        to === 'trash'
          ? held(state)
          : state.stock === 'inProcess' && (to === 'new' || to === 'unscan')
            ? held(state)
            : null;
      return [{ type: 'OrderMoved', data: { from: state.status, to, action: command.action, stock } }];
    }
    case 'ScanOrder':
      if (state.status !== 'unscan') throw wrong(state, command.type);
      return [
        {
          type: 'OrderScanned',
          data: {
            ...(command.batchId ? { batchId: command.batchId } : {}),
            stock: state.stock === 'reserved' ? held(state) : null,
          },
        },
      ];
    case 'CancelOrder':
      if (['shipped', 'delivered', 'returned', 'refunded'].includes(state.status)) {
        throw refuse('ALREADY_SHIPPED');
      }
      if (!OPEN.includes(state.status)) throw wrong(state, command.type);
      return [
        {
          type: 'OrderCancelled',
          data: {
            ...(command.reason ? { reason: command.reason } : {}),
            byMarketplace: command.byMarketplace,
            stock: held(state),
          },
        },
      ];
    case 'ReturnOrder': {
      if (!['shipped', 'delivered'].includes(state.status)) throw refuse('NOT_SHIPPED');
      for (const line of command.lines) {
        const found = state.lines.find((l) => l.lineId === line.lineId);
        if (!found) throw refuse('LINE_NOT_FOUND', { lineId: line.lineId });
        if (!Number.isInteger(line.quantity) || line.quantity < 1 || line.quantity > found.quantity) {
          throw refuse('QUANTITY_INVALID', { lineId: line.lineId, max: found.quantity });
        }
      }
      return [{ type: 'OrderReturned', data: { returnId: command.returnId, lines: command.lines } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/** What the order carries beside its status: printed documents, preview, address, batch. */
function decideMarks(
  command: Extract<OrderCommand, { type: 'MarkPrinted' | 'SetPreview' | 'ChangeAddress' | 'AssignBatch' }>,
  state: PlacedOrder,
): OrderEvent[] {
  switch (command.type) {
    case 'MarkPrinted':
      if (state.onHold) throw refuse('ORDER_ON_HOLD');
      return [{ type: 'OrderPrinted', data: { document: command.document, origin: command.origin } }];
    case 'SetPreview':
      if (state.preview === command.preview) return [];
      // Held for a look before it is packed; letting one go is always possible.
      if (command.preview && !IN_WAREHOUSE.includes(state.status)) throw wrong(state, command.type);
      return [{ type: 'OrderPreviewSet', data: { preview: command.preview } }];
    case 'ChangeAddress':
      if (!OPEN.includes(state.status)) throw wrong(state, command.type);
      return [{ type: 'OrderAddressChanged', data: { address: command.address } }];
    case 'AssignBatch':
      if (state.batchId === command.batchId) return [];
      if (command.batchId !== null && !['new', 'unscan'].includes(state.status))
        throw wrong(state, command.type);
      return [{ type: 'OrderBatched', data: { batchId: command.batchId } }];
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/** Where a replacement may be made: the order reached the buyer, or came back. */
const REPLACEABLE: readonly OrderStatus[] = ['shipped', 'delivered', 'returned'];
/** Where a picker may be assigned: accepted, not yet picked. */
export const ASSIGNABLE: readonly OrderStatus[] = ['new', 'unscan'];

/** The shipment cancelled, a failed step recorded, a picker assigned, a replacement made. */
function decideFollowUp(
  command: Extract<
    OrderCommand,
    { type: 'CancelShipment' | 'RecordProcessFailure' | 'AssignPicker' | 'ReplaceOrder' }
  >,
  state: PlacedOrder,
): OrderEvent[] {
  switch (command.type) {
    case 'CancelShipment':
      if (!IN_WAREHOUSE.includes(state.status)) throw wrong(state, command.type);
      if (state.trackingNumber === null) throw refuse('NO_SHIPMENT');
      return [
        {
          type: 'OrderShipmentCancelled',
          data: {
            trackingNumber: state.trackingNumber,
            shippingProvider: state.shippingProvider ?? '',
            from: state.status,
            // Picking stops: what was in process is reserved again, as a put back to new does.
            stock: state.stock === 'inProcess' ? held(state) : null,
          },
        },
      ];
    case 'RecordProcessFailure':
      return [{ type: 'OrderProcessFailed', data: command.failure }];
    case 'AssignPicker':
      if ((state.pickerId ?? null) === command.pickerId) return [];
      if (command.pickerId !== null && !ASSIGNABLE.includes(state.status)) throw wrong(state, command.type);
      return [{ type: 'OrderPickerAssigned', data: { pickerId: command.pickerId } }];
    case 'ReplaceOrder': {
      if (!REPLACEABLE.includes(state.status)) throw wrong(state, command.type);
      const parts = new Map<string, number>();
      for (const part of command.lines) {
        const line = activeLine(state, part.lineId);
        const quantity = (parts.get(part.lineId) ?? 0) + part.quantity;
        if (!Number.isInteger(part.quantity) || part.quantity < 0 || quantity > line.quantity) {
          throw refuse('REPLACEMENT_QUANTITY_INVALID', { lineId: part.lineId, max: line.quantity });
        }
        parts.set(part.lineId, quantity);
      }
      const lines = [...parts]
        .filter(([, quantity]) => quantity > 0)
        .map(([lineId, quantity]) => ({ lineId, quantity }));
      if (lines.length === 0) throw refuse('REPLACEMENT_NOTHING');
      return [{ type: 'OrderReplaced', data: { replacementOrderId: command.replacementOrderId, lines } }];
    }
    default: {
      const unknown: never = command;
      throw new Error(`unknown order command ${(unknown as { type: string }).type}`);
    }
  }
}

/** The order number of an order's `n`th replacement. */
export const replacementNumberOf = (orderNumber: string, n: number) => `${orderNumber}-R${n}`.slice(0, 100);

/**
 * A replacement order: the original's buyer and address under the next number (`<order number>-R<n>`), the chosen
 * lines at no charge, paid (nothing is due) at `at`, so it is accepted and its stock reserved at once. It is Kedai's
 * own order: no marketplace arranges or cancels it, and the marketplace's shipment details are not copied.
 */
export function replacementPart(
  original: PlacedOrder,
  replacementOrderId: string,
  parts: readonly { lineId: string; quantity: number }[],
  at: string,
): Extract<OrderCommand, { type: 'ImportOrder' }> {
  const chosen = new Map(parts.map((part) => [part.lineId, part.quantity]));
  const lines = original.lines
    .filter((line) => chosen.has(line.lineId))
    .map((line) => ({ ...line, quantity: chosen.get(line.lineId)!, unitPrice: '0.00' }));
  const {
    shippingFee: _fee,
    trackingNumber: _tracking,
    shippingProvider: _provider,
    packageNumbers: _packages,
    ...details
  } = original.details;
  // Numbered by its place among the original's replacements (the original records it first).
  const made = original.replacements ?? [];
  const number = made.includes(replacementOrderId) ? made.indexOf(replacementOrderId) + 1 : made.length + 1;
  return {
    type: 'ImportOrder',
    order: {
      ...details,
      orderId: replacementOrderId,
      orderNumber: replacementNumberOf(original.orderNumber, number),
      marketplaceStatus: 'ready_to_ship',
      orderedAt: at,
      paidAt: at,
      marketplaceUpdatedAt: at,
      cod: false,
      totalAmount: '0.00',
      preOrder: false,
      lines,
      replacementOf: original.orderId,
    },
  };
}

/**
 * The part a split makes: the parent's details under the next number (`<order number>-<n>`), the moved lines with
 * the moved quantities, the total of those lines, in the parent's state and holding the parent's kind of stock.
 */
export function splitPart(
  parent: PlacedOrder,
  childOrderId: string,
  parts: readonly { lineId: string; quantity: number }[],
): Extract<OrderCommand, { type: 'ImportOrder' }> {
  const moved = new Map<string, number>();
  for (const part of parts) moved.set(part.lineId, (moved.get(part.lineId) ?? 0) + part.quantity);
  const lines = activeLines(parent)
    .filter((line) => moved.has(line.lineId))
    // The packing details stay with the parent's units: the part is packed afresh.
    .map(({ binNumber: _bin, serialNumbers: _serials, ...line }) => ({
      ...line,
      quantity: moved.get(line.lineId)!,
    }));
  const cents = lines.reduce(
    (sum, line) => sum + Math.round(Number.parseFloat(line.unitPrice) * 100) * line.quantity,
    0,
  );
  const { shippingFee: _fee, ...details } = parent.details;
  return {
    type: 'ImportOrder',
    order: {
      ...details,
      orderId: childOrderId,
      orderNumber: `${parent.orderNumber}-${parent.splits + 1}`.slice(0, 100),
      totalAmount: (cents / 100).toFixed(2),
      ...(parent.trackingNumber ? { trackingNumber: parent.trackingNumber } : {}),
      lines,
    },
    split: { from: parent.orderId, status: parent.status, stock: parent.stock },
  };
}

// ---- stream ----

export const ORDER_CATEGORY = 'order';
export const orderStreamId = (tenantId: string, orderId: string) =>
  `${ORDER_CATEGORY}-${tenantId}.${orderId}`;
