import { handleStockCommand } from '@commands/inventory/stock';
import { handleGoodsReceiptCommand, handlePurchaseCommand } from '@commands/purchases/documents';
import type { StockCommand } from '@domain/inventory/stock';
import type { GoodsReceipt, GoodsReceiptCommand, GoodsReceiptEvent } from '@domain/purchases/goods-receipt';
import type { Purchase, PurchaseCommand, PurchaseEvent } from '@domain/purchases/purchase';
import { refusalOf } from '@domain/shared/errors';
import type { EventStore } from '@infra/eventstore/port';
import { final } from './final';

/**
 * The purchasing workflows' activities: a command on a purchase order or a goods receive note (the document's
 * events), and one stock movement, each with the command id the workflow gives (workflow id + step, and the stock
 * for a movement), so a retried activity — after a timeout, a dead worker — records once. A domain refusal is final
 * (a non-retryable failure carrying its code and parameters); anything else (the database away) is retried.
 */

export interface DocumentStep {
  tenantId: string;
  userId: string;
  /** When the person acted (the workflow's clock): every event of the action carries it. */
  at: string;
  commandId: string;
}

export interface PurchaseStep extends DocumentStep {
  purchaseId: string;
  command: PurchaseCommand;
}

export interface GoodsReceiptStep extends DocumentStep {
  goodsReceiptId: string;
  command: GoodsReceiptCommand;
}

export interface StockStep extends DocumentStep {
  command: StockCommand;
}

const contextOf = (step: DocumentStep) => ({
  tenantId: step.tenantId,
  userId: step.userId,
  commandId: step.commandId,
  occurredAt: step.at,
});

export function createPurchaseActivities(deps: { store: EventStore }) {
  return {
    async recordPurchase(
      step: PurchaseStep,
    ): Promise<{ purchase: Purchase; revision: number; events: PurchaseEvent[] }> {
      return final(async () => {
        const result = await handlePurchaseCommand(
          deps.store,
          step.purchaseId,
          step.command,
          contextOf(step),
        );
        if (result.state.status === 'none') throw new Error(`purchase ${step.purchaseId} has no events`);
        return { purchase: result.state, revision: Number(result.revision ?? -1), events: result.events };
      });
    },

    async recordGoodsReceipt(
      step: GoodsReceiptStep,
    ): Promise<{ goodsReceipt: GoodsReceipt; revision: number; events: GoodsReceiptEvent[] }> {
      return final(async () => {
        const result = await handleGoodsReceiptCommand(
          deps.store,
          step.goodsReceiptId,
          step.command,
          contextOf(step),
        );
        if (result.state.status === 0) throw new Error(`goods receipt ${step.goodsReceiptId} has no events`);
        return { goodsReceipt: result.state, revision: Number(result.revision ?? -1), events: result.events };
      });
    },

    /**
     * One stock movement of a purchase. An expectation withdrawn (CancelExpectedStock) takes back at most what is
     * still incoming there: another document may have settled part of it, and a purchase closing must not fail on
     * that. Answers what moved.
     */
    async movePurchaseStock(step: StockStep): Promise<{ quantity: number }> {
      return final(async () => {
        const context = contextOf(step);
        try {
          await handleStockCommand(deps.store, step.command, context);
          return { quantity: step.command.quantity };
        } catch (error) {
          const refused = refusalOf(error, 'CANCEL_MORE_THAN_INCOMING');
          if (refused && step.command.type === 'CancelExpectedStock') {
            const incoming = Number(refused.params.incoming ?? 0);
            if (incoming <= 0) return { quantity: 0 };
            await handleStockCommand(deps.store, { ...step.command, quantity: incoming }, context);
            return { quantity: incoming };
          }
          throw error;
        }
      });
    },
  };
}
