import type { HoldKind } from '@domain/inventory/stock';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { type StockTarget, stockTarget } from '@projections/inventory/reference';
import { stockSettings } from '@projections/inventory/stock-settings';
import type { Kysely } from 'kysely';
import type { Actor } from '../support/actor';
import { moveStock } from './move-stock';
import type { StockCommandResult } from './stock';

/**
 * A stock movement a person asks for by hand: receive, adjust (add, deduct, set to the count), or put on or take off
 * a hold. The master code and the warehouse must be the tenant's, a combo has no stock of its own, and a manual
 * deduction follows the account's setting on negative stock; the rest is the stock's own decide.
 */

export interface StockRequestDeps {
  db: Kysely<Database>;
  store: EventStore;
}

interface Named {
  masterCodeId: string;
  warehouseId: string;
  reason?: string;
  /** The idempotency key, scoped by tenant. */
  commandId: string;
}

export type StockRequest =
  | ({ kind: 'receive'; quantity: number; reference?: string } & Named)
  | ({ kind: 'adjust'; mode: 'add' | 'deduct' | 'set'; quantity: number } & Named)
  | ({ kind: 'hold'; action: 'hold' | 'release'; hold: HoldKind; quantity: number } & Named);

export interface StockRequestResult {
  target: StockTarget;
  result: StockCommandResult;
}

export async function requestStockMovement(
  deps: StockRequestDeps,
  actor: Actor,
  input: StockRequest,
): Promise<StockRequestResult> {
  const target = await stockTarget(deps.db, actor.tenantId, input.masterCodeId, input.warehouseId);
  const at = {
    masterCodeId: target.masterCode.id,
    warehouseId: target.warehouse.id,
    ...(input.reason ? { reason: input.reason } : {}),
  };
  const command = await (async () => {
    switch (input.kind) {
      case 'receive':
        return {
          type: 'ReceiveStock' as const,
          ...at,
          quantity: input.quantity,
          ...(input.reference ? { source: { type: 'reference', id: input.reference } } : {}),
        };
      case 'adjust': {
        const settings = await stockSettings(deps.db, actor.tenantId);
        return {
          type: 'AdjustStock' as const,
          ...at,
          mode: input.mode,
          quantity: input.quantity,
          refuseNegative: settings.refuse_negative_manual,
        };
      }
      case 'hold':
        return {
          type: input.action === 'hold' ? ('HoldStock' as const) : ('ReleaseHold' as const),
          ...at,
          hold: input.hold,
          quantity: input.quantity,
        };
      default: {
        const unknown: never = input;
        throw new Error(`unknown stock request ${(unknown as { kind: string }).kind}`);
      }
    }
  })();
  const result = await moveStock({ store: deps.store }, actor, { command, commandId: input.commandId });
  return { target, result };
}
