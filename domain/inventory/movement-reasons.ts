/**
 * The reasons Kedai itself writes on stock movements (an order reserving stock, a transfer shipping it out, a goods
 * receive note…). Stock events are history and are never rewritten, so the stored text stays the English it has
 * always been; the ledger reads the kind and its parameters back from that text and shows them in the reader's
 * language (locales/<lang>/api-stock.json, `stock.reason.<kind>`). A kind is read back only on a movement from its
 * own source document, so a seller's own words on an adjustment are never mistaken for ours.
 */

export const MOVEMENT_REASONS = {
  order_accepted: { source: 'order', text: 'Order accepted' },
  order_line_mapped: { source: 'order', text: 'Order line mapped' },
  order_scanned: { source: 'order', text: 'Order scanned' },
  order_moved: { source: 'order', text: 'Order moved' },
  order_shipped: { source: 'order', text: 'Order shipped' },
  order_cancelled: { source: 'order', text: 'Order cancelled' },
  order_line_removed: { source: 'order', text: 'Order line removed' },
  order_shipment_cancelled: { source: 'order', text: 'Order shipment cancelled' },
  order_gift_added: { source: 'order', text: 'Free gift added' },
  order_returned: { source: 'order_return', text: 'Return of order {{order}}' },
  initial_quantity: { source: 'master_code', text: 'Initial quantity' },
  transfer_out: { source: 'transfer', text: 'Transfer {{transfer}}: out' },
  transfer_in: { source: 'transfer', text: 'Transfer {{transfer}}: in' },
  transfer_expected: { source: 'transfer', text: 'Transfer {{transfer}}: expected' },
  transfer_expectation_withdrawn: {
    source: 'transfer',
    text: 'Transfer {{transfer}}: expectation withdrawn',
  },
  transfer_undone: { source: 'transfer', text: 'Transfer {{transfer}}: undone' },
  purchase_ordered: { source: 'purchase', text: 'Purchase {{po}} ordered' },
  purchase_cancelled: { source: 'purchase', text: 'Purchase {{po}} cancelled' },
  purchase_voided: { source: 'purchase', text: 'Purchase {{po}} voided' },
  purchase_returned: { source: 'purchase', text: 'Purchase {{po}} returned to the supplier' },
  grn_received: { source: 'grn', text: 'Received: GRN {{grn}} (PO {{po}})' },
  grn_damaged: { source: 'grn', text: 'Damaged on receipt: GRN {{grn}} (PO {{po}})' },
  gin_put_back: { source: 'gin', text: 'Goods issue {{gin}} not completed: stock put back' },
} as const satisfies Record<string, { source: string; text: string }>;

export type MovementReasonKind = keyof typeof MOVEMENT_REASONS;
export type MovementReasonParams = Record<string, string>;

const PLACEHOLDER = /\{\{(\w+)\}\}/g;

/** The text a movement of this kind stores (the English every earlier event of the kind already holds). */
export function movementReason(kind: MovementReasonKind, params: MovementReasonParams = {}): string {
  return MOVEMENT_REASONS[kind].text.replace(PLACEHOLDER, (_, name: string) => params[name] ?? '');
}

const readers = Object.entries(MOVEMENT_REASONS).map(([kind, reason]) => ({
  kind: kind as MovementReasonKind,
  source: reason.source as string,
  pattern: new RegExp(
    `^${reason.text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\\\{(\w+)\\\}\\\}/g, '(?<$1>.+?)')}$`,
    's',
  ),
}));

/** The kind and parameters of a reason Kedai wrote on a movement from `sourceType`; null for a person's own words. */
export function readMovementReason(
  text: string,
  sourceType: string | null,
): { kind: MovementReasonKind; params: MovementReasonParams } | null {
  if (sourceType === null) return null;
  for (const reader of readers) {
    if (reader.source !== sourceType) continue;
    const match = reader.pattern.exec(text);
    if (match) return { kind: reader.kind, params: { ...match.groups } };
  }
  return null;
}
