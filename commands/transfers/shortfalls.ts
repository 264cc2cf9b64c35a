import { stockStreamId } from '@domain/inventory/stock';
import type { LineInput } from '@domain/transfers/rules';
import type { EventStore } from '@infra/eventstore/port';

/** A line asking for more than its place has on hand. */
export interface Shortfall {
  masterCodeId: string;
  onHand: number;
  quantity: number;
}

/**
 * The lines that ask for more than `warehouseId` has on hand, every one of them, from the stock streams' last figures:
 * the same figures shipping checks, so a transfer warned about at creation is the one shipping would refuse.
 */
export async function shortfallsAt(
  store: EventStore,
  tenantId: string,
  warehouseId: string,
  lines: readonly LineInput[],
): Promise<Shortfall[]> {
  const figures = await Promise.all(
    lines.map(async (line) => {
      const last = await store.readLastEvent(stockStreamId(tenantId, line.masterCodeId, warehouseId));
      const onHand = last ? (last.data as { onHand: number }).onHand : 0;
      return { masterCodeId: line.masterCodeId, onHand, quantity: line.quantity };
    }),
  );
  return figures.filter((line) => line.onHand < line.quantity);
}
