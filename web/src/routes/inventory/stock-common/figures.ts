import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type Answer, api } from '@web/api/client';
import {
  type MovementRow,
  STOCK_ACTIONS,
  type StockHistory,
  type StockMovement,
  type StockRow,
  stockKeys,
} from '@web/api/stock';

/**
 * Every stock figure of spec §3 ("Master code" → "Stock figures") as the stock API states it (api/inventory/stock.ts):
 * next to on hand and reserved, in process (orders being picked and packed), the three holds (the seller's, parked
 * Smart POS sales, a supplier's), incoming (expected, not on hand) and available online (on hand less what orders
 * and holds keep). The answer types here widen those of @web/api/stock with them, and the hold action is here.
 */

/** The figures besides on hand, reserved and available, in the order the screens show them. */
export const EXTRA_FIGURES = [
  'in_process',
  'on_hold',
  'pos_on_hold',
  'supplier_on_hold',
  'incoming',
] as const;
export type ExtraFigure = (typeof EXTRA_FIGURES)[number];

export type Figures = Record<ExtraFigure, number>;

/** Every movement action, the ones @web/api/stock names and those the later figures brought. */
export const ALL_STOCK_ACTIONS = [
  ...STOCK_ACTIONS,
  'StockProcessingStarted',
  'StockProcessingStopped',
  'StockHeld',
  'StockHoldReleased',
  'StockIncomingExpected',
  'StockIncomingCancelled',
] as const;
export type AnyStockAction = (typeof ALL_STOCK_ACTIONS)[number];

export const HOLD_KINDS = ['online', 'pos', 'supplier'] as const;
export type HoldKind = (typeof HOLD_KINDS)[number];
export const HOLD_ACTIONS = ['hold', 'release'] as const;
export type HoldAction = (typeof HOLD_ACTIONS)[number];

/** The figure each hold kind moves. */
export const HOLD_FIGURE: Record<HoldKind, 'on_hold' | 'pos_on_hold' | 'supplier_on_hold'> = {
  online: 'on_hold',
  pos: 'pos_on_hold',
  supplier: 'supplier_on_hold',
};

/** A movement's mode: an adjustment's, a hold's kind, or where a shipment was taken from. */
export type MovementMode = 'add' | 'deduct' | 'set' | HoldKind | 'reserved' | 'inProcess' | 'free';

/** A stock list row: a combo's own figures are null (its available comes from its components). */
export type StockListRow = StockRow &
  Record<ExtraFigure, number | null> & {
    /** Available as a percent of on hand, one decimal; null when on hand ≤ 0 and for a combo. */
    available_percent: number | null;
  };

export type FullMovementRow = Omit<MovementRow, 'action' | 'mode'> &
  Figures & { action: AnyStockAction; mode: MovementMode | null };

export type FullStockMovement = Omit<StockMovement, 'action' | 'mode'> &
  Figures & { action: AnyStockAction; mode: MovementMode | null };

export type FullStockHistory = Omit<StockHistory, 'as_of_movement' | 'movements'> &
  Figures & { as_of_movement: FullMovementRow | null; movements: FullMovementRow[] };

// ---- holding stock ----

const HOLD_ENDPOINT = '/api/inventory/stock/hold';

export interface HoldBody {
  master_code_id: string;
  warehouse_id: string;
  hold: HoldKind;
  action: HoldAction;
  quantity: number;
  reason?: string;
}

/** Puts stock on hold or releases it; `key` is the Idempotency-Key of this submit, so a double submit moves once. */
export function useHoldStock() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: HoldBody; key: string }) =>
      api<Answer<FullStockMovement>>(HOLD_ENDPOINT, {
        method: 'POST',
        body: { ...body, idempotency_key: key },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: stockKeys.points() }),
  });
}
