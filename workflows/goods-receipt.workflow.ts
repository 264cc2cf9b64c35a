import {
  allHandlersFinished,
  condition,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import { movementReason } from '../domain/inventory/movement-reasons';
import type { GoodsReceipt, GoodsReceiptStatus } from '../domain/purchases/goods-receipt';
import type { PurchaseEvent } from '../domain/purchases/purchase';
import type { createPurchaseActivities } from './activities/purchases';
import {
  approveGoodsReceiptUpdate,
  cancelGoodsReceiptUpdate,
  type GoodsReceiptSnapshot,
  type GoodsReceiptWorkflowInput,
  goodsReceiptStateQuery,
  receiveGoodsReceiptUpdate,
  rejectGoodsReceiptUpdate,
} from './goods-receipt-protocol';
import { asRefusal } from './purchase.workflow';
import {
  type Actor,
  type PurchaseChanged,
  purchaseChangedSignal,
  type ReasonArgs,
} from './purchase-protocol';
import { refusal } from './support/refusal';

type PurchaseActivities = ReturnType<typeof createPurchaseActivities>;

const activities = proxyActivities<PurchaseActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

// The statuses of spec §4, by number (domain/purchases/goods-receipt.ts).
const PENDING = 1;
const WAITING_APPROVE = 4;
const WAITING_RECEIVE = 5;
const FINAL: readonly GoodsReceiptStatus[] = [2, 3, 6];
const NAMES: Record<GoodsReceiptStatus, string> = {
  1: 'Pending',
  2: 'Complete',
  3: 'Cancel',
  4: 'Waiting Approve',
  5: 'Waiting Receive',
  6: 'Reject',
};

/**
 * The life of one goods receive note, `goods-receipt-<tenant>-<goodsReceiptId>`, started by its purchase order's
 * workflow once the order reserved the note's quantities. Its updates — approve, reject, receive, cancel — are
 * refused by their validators in the wrong status (receiving a note that waits for approval, approving twice), while
 * another action runs (a double click), or when the creator approves their own note (the owner excepted); the
 * domain checks again as it records. Receiving is the only step that moves stock: the order records the receipt
 * (with each line's net unit cost), each line's received units enter the warehouse settling the incoming figure,
 * the damaged ones are written off, and the note completes. Rejecting or cancelling gives the reserved quantities
 * back to the order. Every change to the order is signalled to the order's workflow. The workflow ends once the note
 * is complete, cancelled or rejected.
 */
export async function goodsReceiptWorkflow(input: GoodsReceiptWorkflowInput): Promise<GoodsReceiptSnapshot> {
  const { workflowId } = workflowInfo();
  let note: GoodsReceipt = input.goodsReceipt;
  let revision = input.revision;
  let busy: string | null = null;

  const snapshot = (): GoodsReceiptSnapshot => ({ goodsReceipt: note, revision, busy });
  setHandler(goodsReceiptStateQuery, snapshot);

  function expect(action: string, allowed: readonly GoodsReceiptStatus[]): void {
    if (busy) throw refusal('ACTION_IN_PROGRESS', { action: busy });
    if (allowed.includes(note.status)) return;
    if (action === 'receive' && note.status === WAITING_APPROVE) throw refusal('APPROVAL_REQUIRED');
    throw refusal('WRONG_STATE', { status: NAMES[note.status], action });
  }
  function expectApprover(actor: Actor): void {
    if (actor.userId === note.createdBy && !actor.owner) throw refusal('APPROVER_IS_CREATOR');
  }

  async function act(action: string, body: (at: string) => Promise<void>): Promise<GoodsReceiptSnapshot> {
    busy = action;
    try {
      await body(new Date().toISOString());
      return snapshot();
    } catch (error) {
      throw asRefusal(error);
    } finally {
      busy = null;
    }
  }

  const recordNote = async (
    actor: Actor,
    at: string,
    step: string,
    command: Parameters<PurchaseActivities['recordGoodsReceipt']>[0]['command'],
  ) => {
    const result = await activities.recordGoodsReceipt({
      tenantId: input.tenantId,
      goodsReceiptId: input.goodsReceiptId,
      userId: actor.userId,
      at,
      commandId: `${workflowId}:${step}`,
      command,
    });
    note = result.goodsReceipt;
    revision = result.revision;
  };

  const recordOrder = (
    actor: Actor,
    at: string,
    step: string,
    command: Parameters<PurchaseActivities['recordPurchase']>[0]['command'],
  ) =>
    activities.recordPurchase({
      tenantId: input.tenantId,
      purchaseId: note.purchaseId,
      userId: actor.userId,
      at,
      commandId: `${workflowId}:${step}`,
      command,
    });

  /** The order's workflow learns what this note changed (it may be gone: the note is done all the same). */
  async function tellOrder(changed: PurchaseChanged): Promise<void> {
    try {
      await getExternalWorkflowHandle(input.purchaseWorkflowId).signal(purchaseChangedSignal, changed);
    } catch {
      // The order's workflow has ended; the order's stream is the record either way.
    }
  }

  /** The note ends without stock: the order gets its reserved quantities back. */
  async function withdraw(actor: Actor, at: string, reason: 'cancel' | 'reject'): Promise<void> {
    const result = await recordOrder(actor, at, 'withdraw', {
      type: 'WithdrawReceipt',
      goodsReceiptId: input.goodsReceiptId,
      reason,
    });
    await tellOrder({ purchase: result.purchase, revision: result.revision });
  }

  setHandler(
    approveGoodsReceiptUpdate,
    (actor) =>
      act('approve', async (at) => {
        await recordNote(actor, at, 'approve', {
          type: 'ApproveGoodsReceipt',
          by: actor.userId,
          byOwner: actor.owner,
        });
      }),
    {
      validator: (actor) => {
        expect('approve', [WAITING_APPROVE]);
        expectApprover(actor);
      },
    },
  );

  setHandler(
    rejectGoodsReceiptUpdate,
    (args) =>
      act('reject', async (at) => {
        await recordNote(args, at, 'reject', {
          type: 'RejectGoodsReceipt',
          by: args.userId,
          byOwner: args.owner,
          reason: args.reason,
        });
        await withdraw(args, at, 'reject');
      }),
    {
      validator: (args) => {
        expect('reject', [WAITING_APPROVE]);
        expectApprover(args);
      },
    },
  );

  setHandler(
    cancelGoodsReceiptUpdate,
    (args) =>
      act('cancel', async (at) => {
        await recordNote(args, at, 'cancel', {
          type: 'CancelGoodsReceipt',
          by: args.userId,
          reason: args.reason,
        });
        await withdraw(args, at, 'cancel');
      }),
    { validator: (_args: ReasonArgs) => expect('cancel', [PENDING, WAITING_APPROVE, WAITING_RECEIVE]) },
  );

  setHandler(
    receiveGoodsReceiptUpdate,
    (actor) =>
      act('receive', async (at) => {
        // 1. The order records the receipt: its quantities, and each line's unit cost net of the discount share.
        const settled = await recordOrder(actor, at, 'settle', {
          type: 'SettleReceipt',
          goodsReceiptId: input.goodsReceiptId,
        });
        const received = settled.events.find(
          (event): event is Extract<PurchaseEvent, { type: 'PurchaseGoodsReceived' }> =>
            event.type === 'PurchaseGoodsReceived',
        );
        if (!received) throw refusal('RECEIPT_NOT_OPEN');
        // 2. The stock: received units in (settling the incoming figure), damaged ones written off; returned never in.
        const source = { type: 'grn', id: input.goodsReceiptId };
        const about = { grn: note.grnNumber, po: note.poNumber };
        await Promise.all(
          received.data.lines.map(async (line) => {
            const stock = `${line.masterCodeId}@${received.data.warehouseId}`;
            const target = {
              masterCodeId: line.masterCodeId,
              warehouseId: received.data.warehouseId,
              source,
            };
            if (line.received > 0) {
              await activities.movePurchaseStock({
                tenantId: input.tenantId,
                userId: actor.userId,
                at,
                commandId: `${workflowId}:receive:${stock}`,
                command: {
                  type: 'ReceiveStock',
                  ...target,
                  quantity: line.received,
                  settlesIncoming: true,
                  reason: movementReason('grn_received', about),
                },
              });
            }
            if (line.damaged > 0) {
              await activities.movePurchaseStock({
                tenantId: input.tenantId,
                userId: actor.userId,
                at,
                commandId: `${workflowId}:write-off:${stock}`,
                command: {
                  type: 'WriteOffStock',
                  ...target,
                  quantity: line.damaged,
                  refuseNegative: false,
                  reason: movementReason('grn_damaged', about),
                },
              });
            }
          }),
        );
        // 3. The note completes.
        await recordNote(actor, at, 'complete', {
          type: 'CompleteGoodsReceipt',
          by: actor.userId,
          lines: received.data.lines,
        });
        await tellOrder({ purchase: settled.purchase, revision: settled.revision });
      }),
    { validator: (_actor: Actor) => expect('receive', [PENDING, WAITING_RECEIVE]) },
  );

  await condition(() => FINAL.includes(note.status) && busy === null);
  await condition(allHandlersFinished);
  return snapshot();
}
