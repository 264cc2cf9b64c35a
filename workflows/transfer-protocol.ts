import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type {
  LineInput,
  Movement,
  TransferAction,
  TransferProgress,
  TransferStatus,
} from '../domain/transfers/rules';

/**
 * What the transfer workflow (transfer.workflow.ts) and the API (api/transfers/) share: the workflow's name and
 * input, its updates — the people's actions, each answering the transfer as the action left it or refusing with a
 * domain code (workflows/support/refusal.ts) — and its query. No node imports: the workflow bundle takes it too.
 */

export const TRANSFER_WORKFLOW = 'transferWorkflow';

/** The key every action needs (spec §6 "Transfer stock: manage transfer"); the workflow checks it again. */
export const MANAGE_TRANSFER = 'transfer-manage-transfer';

export interface TransferWorkflowInput {
  tenantId: string;
  transferId: string;
  fromWarehouseId: string;
  toWarehouseId: string;
  reference: string;
  lines: LineInput[];
}

/** Who acts: recorded as the event's user; their keys decide whether they may. */
export interface Actor {
  userId: string;
  permissions: string[];
}

export interface ReceiveArgs extends Actor {
  /** Pieces received now, per master code of the transfer (0 or left out: none of it). */
  lines: LineInput[];
}

export interface CancelArgs extends Actor {
  reason: string;
}

/** A pending transfer's new lines, destination and remark, made against the revision the person read. */
export interface EditArgs extends Actor {
  /** The transfer's stream revision the edit was made against: changed since, the edit is refused. */
  revision: number;
  toWarehouseId: string;
  remark: string;
  lines: LineInput[];
}

/** An undo recorded by a step that succeeded: the movements that reverse it, and the step's command id. */
export interface Compensation {
  step: string;
  commandId: string;
  movements: Movement[];
}

export interface TransferSnapshot extends TransferProgress {
  /** The action running now (its update not answered yet), or null. */
  busy: TransferAction | null;
  /** The undo list of the running action, newest last; empty between actions. */
  compensations: Compensation[];
  /** How many actions were accepted so far (each one's number names its steps). */
  actions: number;
}

export interface TransferOutcome {
  status: TransferStatus;
}

export const confirmTransferUpdate = defineUpdate<TransferSnapshot, [Actor]>('transfer.confirm');
export const shipTransferUpdate = defineUpdate<TransferSnapshot, [Actor]>('transfer.ship');
export const receiveTransferUpdate = defineUpdate<TransferSnapshot, [ReceiveArgs]>('transfer.receive');
export const returnRestUpdate = defineUpdate<TransferSnapshot, [Actor]>('transfer.returnRest');
export const cancelTransferUpdate = defineUpdate<TransferSnapshot, [CancelArgs]>('transfer.cancel');
export const editTransferUpdate = defineUpdate<TransferSnapshot, [EditArgs]>('transfer.edit');
export const transferStateQuery = defineQuery<TransferSnapshot>('transfer.state');
