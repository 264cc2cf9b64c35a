/**
 * A batch's pick list (spec §2 "pick list", §9 "Batch item filters: item, SKU, single, multiple, all"): what the
 * picker takes from which rack for the batch's orders.
 *
 * - item: one row per master code, the quantities of every order added up;
 * - SKU: one row per seller SKU (the marketplace's SKU of the line), added up the same way;
 * - single: as item, over the orders of one item (one line) only — they pack straight from the pick;
 * - multiple: as item, over the orders of several items only — they are sorted into their orders after the pick;
 * - all: one row per order line, in order number order, for checking order by order.
 *
 * Rows come in rack order (then code), so the picker walks the racks once. A combo has no shelf of its own: its
 * line is picked as its components (the combo's quantity times each component's), from the components' racks.
 * Free gifts are picked like any line but add up in rows of their own, marked, so the picker knows they go in free;
 * the serial and bin numbers already recorded on a line show on its row.
 */

export const PICK_LIST_FILTERS = ['item', 'sku', 'single', 'multiple', 'all'] as const;
export type PickListFilter = (typeof PICK_LIST_FILTERS)[number];

export interface PickOrderLine {
  lineId: string;
  masterCodeId: string | null;
  sku: string;
  sellerSku: string;
  name: string;
  variation?: string;
  quantity: number;
  gift?: boolean;
  binNumber?: string | null;
  serialNumbers?: readonly string[];
}

export interface PickOrder {
  orderId: string;
  orderNumber: string;
  trackingNumber: string | null;
  warehouseId: string;
  lines: PickOrderLine[];
}

export interface PickMasterCode {
  code: string;
  name: string;
  /** The master code's own seller SKU: what a combo's component is listed under by SKU. */
  sellerSku?: string | null;
}

/** A combo's components: the master code and how many of it one combo holds. */
export type PickCombos = ReadonlyMap<string, readonly { masterCodeId: string; quantity: number }[]>;

/** The lines to pick for an order line: itself, or its combo's components (keyed `<lineId>/<componentId>`). */
export function pickLinesOf(
  line: PickOrderLine,
  masterCodes: ReadonlyMap<string, PickMasterCode>,
  combos: PickCombos,
): PickOrderLine[] {
  const components = line.masterCodeId ? combos.get(line.masterCodeId) : undefined;
  if (!components?.length) return [line];
  return components.map((component) => {
    const master = masterCodes.get(component.masterCodeId);
    return {
      lineId: `${line.lineId}/${component.masterCodeId}`,
      masterCodeId: component.masterCodeId,
      sku: master?.code ?? '',
      sellerSku: master?.sellerSku || master?.code || '',
      name: master?.name ?? '',
      quantity: line.quantity * component.quantity,
      ...(line.gift ? { gift: true } : {}),
    };
  });
}

export interface PickRow {
  /** What the row adds up: the master code (item, single, multiple), the seller SKU, or the order line (all). */
  key: string;
  masterCodeId: string | null;
  code: string | null;
  sellerSku: string;
  name: string;
  quantity: number;
  orderCount: number;
  orderNumbers: string[];
  /** The racks the item is kept on, in the warehouses of these orders. */
  locations: string[];
  /** Filter "all": the order the line is on. */
  orderNumber: string | null;
  trackingNumber: string | null;
  /** Free gifts, counted apart from the same item sold. */
  gift: boolean;
  /** The bin numbers and serial numbers recorded on the row's lines. */
  binNumbers: string[];
  serialNumbers: string[];
}

export interface PickList {
  filter: PickListFilter;
  rows: PickRow[];
  totalQuantity: number;
  orderCount: number;
}

/** Locations are looked up as `<masterCodeId>@<warehouseId>`. */
export const locationKey = (masterCodeId: string, warehouseId: string) => `${masterCodeId}@${warehouseId}`;

const compareRows = (a: PickRow, b: PickRow) =>
  (a.locations[0] ?? '\uffff').localeCompare(b.locations[0] ?? '\uffff') ||
  (a.code ?? a.sellerSku).localeCompare(b.code ?? b.sellerSku) ||
  a.key.localeCompare(b.key);

export function buildPickList(
  orders: readonly PickOrder[],
  filter: PickListFilter,
  masterCodes: ReadonlyMap<string, PickMasterCode>,
  locations: ReadonlyMap<string, readonly string[]>,
  combos: PickCombos = new Map(),
): PickList {
  const chosen = orders.filter((order) =>
    filter === 'single' ? order.lines.length === 1 : filter === 'multiple' ? order.lines.length > 1 : true,
  );
  const racksOf = (line: PickOrderLine, warehouseId: string) =>
    line.masterCodeId ? (locations.get(locationKey(line.masterCodeId, warehouseId)) ?? []) : [];
  const rows = new Map<string, PickRow & { orders: Set<string> }>();
  for (const order of chosen) {
    for (const line of order.lines.flatMap((each) => pickLinesOf(each, masterCodes, combos))) {
      const master = line.masterCodeId ? masterCodes.get(line.masterCodeId) : undefined;
      const gift = line.gift === true;
      const key =
        filter === 'all'
          ? `${order.orderId}:${line.lineId}`
          : `${gift ? 'gift:' : ''}${
              filter === 'sku'
                ? `sku:${line.sellerSku || line.sku}`
                : line.masterCodeId
                  ? `master:${line.masterCodeId}`
                  : `sku:${line.sellerSku || line.sku}`
            }`;
      let row = rows.get(key);
      if (!row) {
        row = {
          key,
          masterCodeId: line.masterCodeId,
          code: master?.code ?? null,
          sellerSku: line.sellerSku || line.sku,
          name: master?.name ?? (line.variation ? `${line.name} (${line.variation})` : line.name),
          quantity: 0,
          orderCount: 0,
          orderNumbers: [],
          locations: [],
          orderNumber: filter === 'all' ? order.orderNumber : null,
          trackingNumber: filter === 'all' ? order.trackingNumber : null,
          gift,
          binNumbers: [],
          serialNumbers: [],
          orders: new Set(),
        };
        rows.set(key, row);
      }
      row.quantity += line.quantity;
      if (line.binNumber && !row.binNumbers.includes(line.binNumber)) row.binNumbers.push(line.binNumber);
      row.serialNumbers.push(...(line.serialNumbers ?? []));
      if (!row.orders.has(order.orderId)) {
        row.orders.add(order.orderId);
        row.orderNumbers.push(order.orderNumber);
      }
      for (const rack of racksOf(line, order.warehouseId)) {
        if (!row.locations.includes(rack)) row.locations.push(rack);
      }
    }
  }
  const list = [...rows.values()].map(({ orders: seen, ...row }) => ({
    ...row,
    orderCount: seen.size,
    orderNumbers: [...row.orderNumbers].sort(),
    locations: [...row.locations].sort(),
  }));
  if (filter === 'all') {
    list.sort((a, b) => (a.orderNumber ?? '').localeCompare(b.orderNumber ?? '') || compareRows(a, b));
  } else {
    list.sort(compareRows);
  }
  return {
    filter,
    rows: list,
    totalQuantity: list.reduce((total, row) => total + row.quantity, 0),
    orderCount: chosen.length,
  };
}
