import { GinCode } from '../goods-issue/codes';
import { DomainError, type ErrorTable, type RefusalParams } from '../shared/errors';

/**
 * Layered approval (spec §3 "Goods receive and issue notes": approval layers 1 to 3), as a pure decider any
 * document can carry: a goods issue note today, a goods receive note later. The account's settings say how many
 * layers there are; a snapshot of them is taken when the document is submitted, so changing the settings later does
 * not move a document already on its way. Each layer is approved, in order, by a user holding that layer's key
 * (`gin-approval-layer-<n>` for goods issue); any layer may reject, which ends the approval; a user may approve at
 * two layers only when the settings allow it.
 *
 * Pure TypeScript without dependencies: the workflow code (bundled for Temporal) imports it as well.
 */

export const MIN_LAYERS = 1;
export const MAX_LAYERS = 3;

export interface ApprovalSettings {
  /** How many layers approve a document: 1 to 3. */
  layers: number;
  /** How long a layer may wait before its approvers are reminded, in seconds. */
  reminderSeconds: number;
  /** Whether one user may approve at two (or three) layers of the same document. */
  allowSameApprover: boolean;
}

/** One day: the reminder interval of an account that never changed it. */
export const DEFAULT_REMINDER_SECONDS = 1440 * 60;

export const DEFAULT_APPROVAL_SETTINGS: ApprovalSettings = {
  layers: 1,
  reminderSeconds: DEFAULT_REMINDER_SECONDS,
  allowSameApprover: false,
};

export interface LayerApproval {
  layer: number;
  userId: string;
  at: string;
}

export interface LayerRejection {
  layer: number;
  userId: string;
  at: string;
  reason: string;
}

/** Where a document's approval stands: the settings it was submitted under, the approvals so far, a rejection. */
export interface ApprovalProgress {
  settings: ApprovalSettings;
  /** In layer order: approvals[i] is layer i + 1's. */
  approvals: readonly LayerApproval[];
  rejection: LayerRejection | null;
}

export type ApprovalAction =
  | { kind: 'approve'; layer: number; userId: string; keys: readonly string[]; at: string }
  | { kind: 'reject'; layer: number; userId: string; keys: readonly string[]; at: string; reason: string };

export type ApprovalDecision =
  | {
      kind: 'approved';
      approval: LayerApproval /** The last layer: the document is approved. */;
      final: boolean;
    }
  | { kind: 'rejected'; rejection: LayerRejection };

export const APPROVAL_ERRORS = [
  /** The settings are out of bounds (layers 1 to 3, a positive reminder interval). */
  'APPROVAL_SETTINGS_INVALID',
  /** This user already approved this layer: a second click. */
  'APPROVAL_ALREADY_GIVEN',
  /** A layer rejected the document: nothing more to decide. */
  'APPROVAL_REJECTED',
  /** Every layer approved already. */
  'APPROVAL_COMPLETE',
  /** No such layer in this document's settings. */
  'APPROVAL_LAYER_INVALID',
  /** Another layer is waiting: layers are approved in order. */
  'APPROVAL_OUT_OF_ORDER',
  /** The user lacks the layer's key. */
  'APPROVAL_KEY_MISSING',
  /** The user approved an earlier layer and the settings forbid approving at two. */
  'APPROVAL_SAME_USER',
  /** A rejection must say why. */
  'APPROVAL_REASON_REQUIRED',
] as const;
export type ApprovalErrorCode = (typeof APPROVAL_ERRORS)[number];

/** How each refusal answers (the layers serve goods issue notes: their codes and messages). */
export const approvalErrors = {
  APPROVAL_SETTINGS_INVALID: {
    status: 400,
    code: GinCode.settingsInvalid,
    key: 'goods_issue.settings.layers_invalid',
  },
  APPROVAL_ALREADY_GIVEN: { status: 409, code: GinCode.alreadyApproved, key: 'goods_issue.already_given' },
  APPROVAL_REJECTED: { status: 409, code: GinCode.approvalDecided, key: 'goods_issue.already_rejected' },
  APPROVAL_COMPLETE: { status: 409, code: GinCode.approvalDecided, key: 'goods_issue.already_approved' },
  APPROVAL_LAYER_INVALID: { status: 400, code: GinCode.layerOutOfOrder, key: 'goods_issue.layer_invalid' },
  APPROVAL_OUT_OF_ORDER: { status: 409, code: GinCode.layerOutOfOrder, key: 'goods_issue.out_of_order' },
  APPROVAL_KEY_MISSING: { status: 403, code: GinCode.layerKeyMissing, key: 'goods_issue.key_missing' },
  APPROVAL_SAME_USER: { status: 409, code: GinCode.sameApprover, key: 'goods_issue.same_approver' },
  APPROVAL_REASON_REQUIRED: {
    status: 400,
    code: GinCode.rejectReasonRequired,
    key: 'goods_issue.reject_reason_required',
  },
} satisfies ErrorTable<ApprovalErrorCode>;

export const isApprovalError = (code: string): code is ApprovalErrorCode => code in approvalErrors;

/** The refusal of `code` with its answer (a decision here, or a workflow's refusal come back). */
export const refuseApproval = (code: ApprovalErrorCode, params: RefusalParams = {}) =>
  new DomainError<ApprovalErrorCode>(code, params, approvalErrors[code]);

const refuse = refuseApproval;

/** The key a user needs to act at a layer of a goods issue note. */
export const ginApprovalKey = (layer: number) => `gin-approval-layer-${layer}`;

/** Whether settings are within the bounds; the decider refuses others. */
export function validSettings(settings: ApprovalSettings): boolean {
  return (
    Number.isInteger(settings.layers) &&
    settings.layers >= MIN_LAYERS &&
    settings.layers <= MAX_LAYERS &&
    Number.isInteger(settings.reminderSeconds) &&
    settings.reminderSeconds >= 1 &&
    typeof settings.allowSameApprover === 'boolean'
  );
}

/** The progress of a document just submitted under `settings`. */
export function startApproval(settings: ApprovalSettings): ApprovalProgress {
  if (!validSettings(settings)) {
    throw refuse('APPROVAL_SETTINGS_INVALID', { layers: settings.layers });
  }
  return { settings: { ...settings }, approvals: [], rejection: null };
}

/** The layer waiting for a decision, or null once the approval is complete or rejected. */
export function currentLayer(progress: ApprovalProgress): number | null {
  if (progress.rejection) return null;
  const next = progress.approvals.length + 1;
  return next > progress.settings.layers ? null : next;
}

export const isApproved = (progress: ApprovalProgress) =>
  progress.rejection === null && progress.approvals.length >= progress.settings.layers;

/**
 * Decides an approval or a rejection by a user at a layer, against the progress so far; throws a DomainError
 * (APPROVAL_*) when refused. The checks, in order: a second approval of the same layer by the same user; a decided
 * approval (rejected, complete); a layer the settings do not have; a layer other than the one waiting; the layer's
 * key; and, for an approval, the same user at two layers when the settings forbid it. `keyFor` names a layer's key
 * (goods issue's by default).
 */
export function decideApproval(
  progress: ApprovalProgress,
  action: ApprovalAction,
  keyFor: (layer: number) => string = ginApprovalKey,
): ApprovalDecision {
  const { layer, userId } = action;
  if (
    action.kind === 'approve' &&
    progress.approvals.some((approval) => approval.layer === layer && approval.userId === userId)
  ) {
    throw refuse('APPROVAL_ALREADY_GIVEN', { layer });
  }
  if (progress.rejection) throw refuse('APPROVAL_REJECTED', { layer: progress.rejection.layer });
  const current = currentLayer(progress);
  if (current === null) throw refuse('APPROVAL_COMPLETE', { layers: progress.settings.layers });
  if (!Number.isInteger(layer) || layer < 1 || layer > progress.settings.layers) {
    throw refuse('APPROVAL_LAYER_INVALID', { layer: String(layer), layers: progress.settings.layers });
  }
  if (layer !== current) throw refuse('APPROVAL_OUT_OF_ORDER', { layer, current });
  const key = keyFor(layer);
  if (!action.keys.includes(key)) throw refuse('APPROVAL_KEY_MISSING', { layer, key });
  if (action.kind === 'approve') {
    if (!progress.settings.allowSameApprover) {
      const earlier = progress.approvals.find((approval) => approval.userId === userId);
      if (earlier) throw refuse('APPROVAL_SAME_USER', { layer, approved: earlier.layer });
    }
    return {
      kind: 'approved',
      approval: { layer, userId, at: action.at },
      final: layer === progress.settings.layers,
    };
  }
  const reason = action.reason.trim();
  if (!reason) throw refuse('APPROVAL_REASON_REQUIRED', { layer });
  return { kind: 'rejected', rejection: { layer, userId, at: action.at, reason } };
}

/** The progress after a decision. */
export function applyApproval(progress: ApprovalProgress, decision: ApprovalDecision): ApprovalProgress {
  if (decision.kind === 'approved') {
    return { ...progress, approvals: [...progress.approvals, decision.approval] };
  }
  return { ...progress, rejection: decision.rejection };
}
