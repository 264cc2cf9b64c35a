import { handleStockCommand } from '@commands/inventory/stock';
import { eventIdFor } from '@commands/support/ids';
import { type Shortfall, shortfallsAt } from '@commands/transfers/shortfalls';
import { handleTransferCommand } from '@commands/transfers/transfer';
import { type MovementReasonKind, movementReason } from '@domain/inventory/movement-reasons';
import { type StockCommand, type StockEvent, stockStreamId } from '@domain/inventory/stock';
import { refusalOf } from '@domain/shared/errors';
import {
  compensationOf,
  type LineInput,
  type Movement,
  refuseTransfer,
  type TransferAction,
  type TransferProgress,
} from '@domain/transfers/rules';
import type { TransferCommand } from '@domain/transfers/transfer';
import type { Database } from '@infra/db';
import { WrongExpectedRevisionError } from '@infra/eventstore/errors';
import type { EventStore } from '@infra/eventstore/port';
import type { Kysely } from 'kysely';
import { final } from './final';

/**
 * The transfer workflow's activities: each stock step of a transfer (and each undo) through the stock command
 * handler, with the command id the workflow gives (workflow id + action number + step + stock), so a retried
 * activity — after a timeout, a dead worker — moves stock once; and the transfer document's events. A domain refusal
 * is final (a non-retryable failure carrying its code); anything else (the database away) is retried.
 */

export interface StepContext {
  tenantId: string;
  transferId: string;
  userId: string;
  /** When the person acted (the workflow's clock): every event of the action carries it. */
  at: string;
  reference: string;
}

export interface StepInput extends StepContext {
  /** The stock command's id: the idempotency key of the movement. */
  commandId: string;
  action: TransferAction;
  attempt: number;
  step: string;
  movement: Movement;
}

export interface StepResult {
  /** What moved (a withdrawn expectation may be less than asked: see `moveStock`). */
  quantity: number;
  settledIncoming: number;
  /** The movements that undo the step, recorded on the document as soon as it succeeded. */
  compensation: Movement[];
}

export interface UndoInput extends StepContext {
  commandId: string;
  action: TransferAction;
  attempt: number;
  step: string;
  movements: Movement[];
}

export interface RecordInput extends StepContext {
  commandId: string;
  command: TransferCommand;
  /** The revision a person's edit was made against: changed since, the edit is refused. */
  expectedRevision?: number;
}

const REASONS: Record<Movement['type'], MovementReasonKind> = {
  TransferStockOut: 'transfer_out',
  TransferStockIn: 'transfer_in',
  ExpectStock: 'transfer_expected',
  CancelExpectedStock: 'transfer_expectation_withdrawn',
};

function stockCommandOf(movement: Movement, context: StepContext, why: MovementReasonKind): StockCommand {
  const target = {
    masterCodeId: movement.masterCodeId,
    warehouseId: movement.warehouseId,
    quantity: movement.quantity,
    reason: movementReason(why, { transfer: context.reference }),
    source: { type: 'transfer', id: context.transferId },
  };
  switch (movement.type) {
    case 'TransferStockOut':
      return { type: 'TransferStockOut', ...target, toWarehouseId: movement.toWarehouseId };
    case 'TransferStockIn':
      return {
        type: 'TransferStockIn',
        ...target,
        fromWarehouseId: movement.fromWarehouseId,
        settlesIncoming: movement.settlesIncoming,
      };
    case 'ExpectStock':
      return { type: 'ExpectStock', ...target };
    case 'CancelExpectedStock':
      return { type: 'CancelExpectedStock', ...target };
    default: {
      const unknown: never = movement;
      throw new Error(`unknown movement ${(unknown as { type: string }).type}`);
    }
  }
}

const MAX_WITHDRAW_ATTEMPTS = 10;

export function createTransferActivities(deps: { store: EventStore; db: Kysely<Database> }) {
  const { store, db } = deps;

  /**
   * One stock movement. Withdrawing an expectation takes at most what the destination still expects: a receipt
   * elsewhere (a purchase settling incoming) may have settled part of it, and the figure never goes below 0.
   */
  async function moveStock(
    movement: Movement,
    context: StepContext,
    commandId: string,
    why: MovementReasonKind,
  ): Promise<{ quantity: number; settledIncoming: number }> {
    const meta = { tenantId: context.tenantId, userId: context.userId, commandId, occurredAt: context.at };
    const command = stockCommandOf(movement, context, why);
    if (command.type !== 'CancelExpectedStock') {
      const { event } = await handleStockCommand(store, command, meta);
      return { quantity: event.data.quantity, settledIncoming: settledOf(event) };
    }
    const stream = stockStreamId(context.tenantId, movement.masterCodeId, movement.warehouseId);
    for (let attempt = 1; ; attempt++) {
      const done = await store.findEvent(stream, eventIdFor(commandId));
      if (done) return { quantity: (done.data as { quantity: number }).quantity, settledIncoming: 0 };
      const last = await store.readLastEvent(stream);
      const expected = last ? (last.data as { incoming: number }).incoming : 0;
      const quantity = Math.min(command.quantity, expected);
      if (quantity <= 0) return { quantity: 0, settledIncoming: 0 };
      try {
        const { event } = await handleStockCommand(store, { ...command, quantity }, meta);
        return { quantity: event.data.quantity, settledIncoming: 0 };
      } catch (error) {
        // The figure fell between the read and the command: read it again.
        if (refusalOf(error, 'CANCEL_MORE_THAN_INCOMING') && attempt < MAX_WITHDRAW_ATTEMPTS) {
          continue;
        }
        throw error;
      }
    }
  }

  const record = (
    context: StepContext,
    commandId: string,
    command: TransferCommand,
    expectedRevision?: number,
  ) =>
    handleTransferCommand(store, context.transferId, command, {
      tenantId: context.tenantId,
      userId: context.userId,
      commandId,
      occurredAt: context.at,
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
    });

  return {
    /** A stock step of a transfer action, then its record (with its undo) on the transfer document. */
    async runTransferStep(input: StepInput): Promise<StepResult> {
      return final(async () => {
        const moved = await moveStock(input.movement, input, input.commandId, REASONS[input.movement.type]);
        const compensation = compensationOf(input.movement, moved);
        if (moved.quantity > 0) {
          await record(input, `${input.commandId}:recorded`, {
            type: 'RecordTransferStep',
            action: input.action,
            attempt: input.attempt,
            step: input.step,
            movement: { ...input.movement, quantity: moved.quantity },
            compensation,
          });
        }
        return { ...moved, compensation };
      });
    },

    /** Undoes a step: its compensating movements in order, then the record of the undo on the document. */
    async compensateTransferStep(input: UndoInput): Promise<void> {
      await final(async () => {
        const done: Movement[] = [];
        for (const [index, movement] of input.movements.entries()) {
          const moved = await moveStock(movement, input, `${input.commandId}:${index}`, 'transfer_undone');
          if (moved.quantity > 0) done.push({ ...movement, quantity: moved.quantity });
        }
        await record(input, `${input.commandId}:recorded`, {
          type: 'RecordStepCompensation',
          action: input.action,
          attempt: input.attempt,
          step: input.step,
          movements: done,
        });
      });
    },

    /** Records an event on the transfer document; answers the transfer's progress after it. */
    async recordTransfer(input: RecordInput): Promise<TransferProgress> {
      return final(async () => {
        const { state } = await record(input, input.commandId, input.command, input.expectedRevision).catch(
          (error: unknown) => {
            throw error instanceof WrongExpectedRevisionError ? refuseTransfer('CHANGED_MEANWHILE') : error;
          },
        );
        if (state.status === 'none') throw refuseTransfer('DOCUMENT_NOT_FOUND');
        return { status: state.status, confirmed: state.confirmed, lines: state.lines };
      });
    },

    /**
     * The lines the source lacks the stock to ship, when the account refuses negative manual stock (the setting of
     * issue 4, on by default); none when it allows it.
     */
    async sourceShortfalls(input: {
      tenantId: string;
      warehouseId: string;
      lines: LineInput[];
    }): Promise<Shortfall[]> {
      const setting = await db
        .selectFrom('inventory_settings')
        .select('refuse_negative_manual')
        .where('tenant_id', '=', input.tenantId)
        .executeTakeFirst();
      if (setting && !setting.refuse_negative_manual) return [];
      return shortfallsAt(store, input.tenantId, input.warehouseId, input.lines);
    },
  };
}

function settledOf(event: StockEvent): number {
  if (event.type === 'StockTransferredIn' || event.type === 'StockReceived')
    return event.data.settledIncoming ?? 0;
  return 0;
}
