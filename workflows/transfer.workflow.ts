import {
  ActivityFailure,
  ApplicationFailure,
  allHandlersFinished,
  condition,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  actionProblem,
  isClosed,
  type LineInput,
  receiveMovements,
  restOf,
  returnMovements,
  type StepPlan,
  shipMovements,
  type TransferAction,
  type TransferProgress,
} from '../domain/transfers/rules';
import type { TransferCommand } from '../domain/transfers/transfer';
import type { createTransferActivities } from './activities/transfers';
import { refusal } from './support/refusal';
import {
  type Actor,
  type Compensation,
  cancelTransferUpdate,
  confirmTransferUpdate,
  editTransferUpdate,
  MANAGE_TRANSFER,
  receiveTransferUpdate,
  returnRestUpdate,
  shipTransferUpdate,
  type TransferOutcome,
  type TransferSnapshot,
  type TransferWorkflowInput,
  transferStateQuery,
} from './transfer-protocol';

type TransferActivities = ReturnType<typeof createTransferActivities>;

const activities = proxyActivities<TransferActivities>({
  // A step is one stock command and one append: seconds at most. A worker that dies mid-step loses it to this
  // timeout, and the retry (same command id) finds what the first attempt recorded.
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});

/** The code of a step that failed for good (a domain refusal), or null for any other failure. */
function permanentFailure(error: unknown): string | null {
  if (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.nonRetryable
  ) {
    return error.cause.type ?? 'FAILED';
  }
  return null;
}

interface ActionContext {
  action: TransferAction;
  attempt: number;
  /** The prefix of every command id of this action: `<workflowId>:<action>#<n>`. */
  base: string;
  step: { tenantId: string; transferId: string; userId: string; at: string; reference: string };
}

/**
 * The life of one stock transfer, `transfer-<tenant>-<transferId>`: it waits for people's actions and carries each
 * out as a saga. Every action is an update whose validator refuses what the state does not allow — the wrong state,
 * a second click while the first runs, more than is in transit, a user without "manage transfer" — before anything
 * is recorded. Its handler takes the action's stock steps one by one; each step, once it succeeded, records the
 * movements that would undo it (here and on the document). When a step fails for good, the steps done so far are
 * undone newest first, the failure is recorded, and the update answers a refusal; the transfer stays as it was.
 * The workflow ends once the transfer is completed or cancelled.
 */
export async function transferWorkflow(input: TransferWorkflowInput): Promise<TransferOutcome> {
  const { workflowId } = workflowInfo();
  let progress: TransferProgress = {
    status: 'pending',
    confirmed: false,
    lines: input.lines.map((line) => ({ ...line, shipped: 0, received: 0, returned: 0 })),
  };
  let busy: TransferAction | null = null;
  let actions = 0;
  let compensations: Compensation[] = [];

  const snapshot = (): TransferSnapshot => ({
    ...progress,
    busy,
    compensations: [...compensations],
    actions,
  });

  function validate(action: TransferAction, actor: Actor, receipt?: LineInput[]): void {
    if (!actor.permissions.includes(MANAGE_TRANSFER)) throw refusal('NOT_ALLOWED');
    if (busy) throw refusal('ACTION_IN_PROGRESS', { action: busy });
    const found = actionProblem(action, progress, receipt);
    if (found) throw refusal(found.code, found.params);
  }

  /**
   * Runs an accepted action. `busy` is set before the first await, so the validator of an update arriving while
   * this one runs (a double click) refuses it.
   */
  async function act(
    action: TransferAction,
    actor: Actor,
    body: (context: ActionContext) => Promise<void>,
  ): Promise<TransferSnapshot> {
    busy = action;
    actions += 1;
    compensations = [];
    const context: ActionContext = {
      action,
      attempt: actions,
      base: `${workflowId}:${action}#${actions}`,
      step: {
        tenantId: input.tenantId,
        transferId: input.transferId,
        userId: actor.userId,
        at: new Date().toISOString(),
        reference: input.reference,
      },
    };
    try {
      await body(context);
      return snapshot();
    } finally {
      busy = null;
      compensations = [];
    }
  }

  const record = async (
    context: ActionContext,
    suffix: string,
    command: TransferCommand,
    expectedRevision?: number,
  ) => {
    progress = await activities.recordTransfer({
      ...context.step,
      commandId: `${context.base}:${suffix}`,
      command,
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
    });
  };

  /** The steps, then the event that concludes them; on a final failure, the saga's undo. */
  async function saga(context: ActionContext, plans: StepPlan[], conclusion: TransferCommand): Promise<void> {
    try {
      for (const plan of plans) {
        const { movement } = plan;
        const commandId = `${context.base}:${plan.step}:${movement.masterCodeId}@${movement.warehouseId}`;
        const result = await activities.runTransferStep({
          ...context.step,
          commandId,
          action: context.action,
          attempt: context.attempt,
          step: plan.step,
          movement,
        });
        compensations.push({ step: plan.step, commandId, movements: result.compensation });
      }
      await record(context, 'done', conclusion);
    } catch (error) {
      const code = permanentFailure(error);
      if (!code) throw error;
      for (const entry of [...compensations].reverse()) {
        if (entry.movements.length === 0) continue;
        await activities.compensateTransferStep({
          ...context.step,
          commandId: `${entry.commandId}:undo`,
          action: context.action,
          attempt: context.attempt,
          step: entry.step,
          movements: entry.movements,
        });
      }
      compensations = [];
      await record(context, 'failed', {
        type: 'RecordActionFailure',
        action: context.action,
        attempt: context.attempt,
        code,
      });
      throw refusal('ACTION_FAILED', { action: context.action, reason: code });
    }
  }

  const from = input.fromWarehouseId;
  // An edit before shipping may send the transfer elsewhere.
  let to = input.toWarehouseId;

  setHandler(
    confirmTransferUpdate,
    (actor) => act('confirm', actor, (context) => record(context, 'done', { type: 'ConfirmTransfer' })),
    { validator: (actor) => validate('confirm', actor) },
  );

  // An edit runs here, not beside the workflow, so it never lands between a shipment's shortfall check and its steps.
  setHandler(
    editTransferUpdate,
    ({ revision, toWarehouseId, remark, lines, ...actor }) =>
      act('edit', actor, async (context) => {
        const edit: TransferCommand = { type: 'EditTransfer', toWarehouseId, remark, lines };
        await record(context, 'done', edit, revision);
        to = toWarehouseId;
      }),
    { validator: (args) => validate('edit', args) },
  );

  setHandler(
    shipTransferUpdate,
    (actor) =>
      act('ship', actor, async (context) => {
        const lines = progress.lines.map((line) => ({
          masterCodeId: line.masterCodeId,
          quantity: line.quantity,
        }));
        const [short] = await activities.sourceShortfalls({
          tenantId: input.tenantId,
          warehouseId: from,
          lines,
        });
        if (short) throw refusal('INSUFFICIENT_STOCK', { ...short });
        await saga(context, shipMovements(from, to, lines), { type: 'RecordShipment' });
      }),
    { validator: (actor) => validate('ship', actor) },
  );

  setHandler(
    receiveTransferUpdate,
    (args) =>
      act('receive', args, (context) =>
        saga(context, receiveMovements(from, to, args.lines), { type: 'RecordReceipt', lines: args.lines }),
      ),
    { validator: (args) => validate('receive', args, args.lines) },
  );

  setHandler(
    returnRestUpdate,
    (actor) =>
      act('returnRest', actor, (context) =>
        saga(context, returnMovements(from, to, restOf(progress.lines)), { type: 'ReturnRest' }),
      ),
    { validator: (actor) => validate('returnRest', actor) },
  );

  setHandler(
    cancelTransferUpdate,
    (args) =>
      act('cancel', args, (context) =>
        saga(context, returnMovements(from, to, restOf(progress.lines)), {
          type: 'CancelTransfer',
          reason: args.reason,
        }),
      ),
    { validator: (args) => validate('cancel', args) },
  );

  setHandler(transferStateQuery, snapshot);

  await condition(() => isClosed(progress.status) && busy === null && allHandlersFinished());
  return { status: progress.status };
}
