import type { GoodsIssueDetail } from '@api/contracts/goods-issue';
import { currentLayer } from '@domain/approvals/layers';
import { allowedActions, GIN_STATUS, type GinStockLine } from '@domain/goods-issue/decider';
import type { Database } from '@infra/db';
import type { EventStore } from '@infra/eventstore/port';
import { masterCodesOfTenant, placeOfTenant } from '@projections/documents.queries';
import { peopleNames } from '@projections/goods-issue.queries';
import type { Kysely } from 'kysely';
import { type GoodsIssueViewer, noteOrRefuse } from './support';

/**
 * A note as the console shows it: its fields with the names behind the ids (warehouse, master codes, people), the
 * approval progress layer by layer, the issue's outcome, the timeline of its events (who, what, when), and which
 * actions the viewer may take on it now (the domain's `allowedActions`).
 */

/**
 * The note, or not found; `viewer` is who asks (their keys decide the actions they see).
 */
export async function goodsIssueDetail(
  deps: { db: Kysely<Database>; store: EventStore },
  viewer: GoodsIssueViewer,
  ginId: string,
): Promise<GoodsIssueDetail> {
  const { db } = deps;
  const { state, timeline } = await noteOrRefuse(deps.store, viewer.tenantId, ginId);
  const tenantId = viewer.tenantId;
  const people = new Set<string>([state.createdBy]);
  for (const entry of timeline) {
    if (entry.userId) people.add(entry.userId);
    const data = entry.data as { recipients?: string[] };
    for (const id of data.recipients ?? []) people.add(id);
  }
  for (const approval of state.approval?.approvals ?? []) people.add(approval.userId);
  const names = await peopleNames(db, tenantId, people);
  const named = (id: string) => ({ id, name: names.get(id) ?? '' });

  const lineCodes = new Set(state.lines.map((line) => line.masterCodeId));
  for (const entry of timeline) {
    for (const line of (entry.data as { lines?: GinStockLine[] }).lines ?? [])
      lineCodes.add(line.masterCodeId);
  }
  const codes = await masterCodesOfTenant(db, tenantId, lineCodes);
  const coded = (id: string) => {
    const found = codes.get(id);
    return { id, code: found?.code ?? '', name: found?.name ?? '' };
  };
  const stockLines = (lines: GinStockLine[]) =>
    lines.map((line) => ({
      master_code: coded(line.masterCodeId),
      quantity: line.quantity,
      on_hand: line.onHand,
    }));
  const warehouse = await placeOfTenant(db, tenantId, state.warehouseId);

  const approval = state.approval;
  const waiting = approval ? currentLayer(approval) : null;
  const steps = approval
    ? Array.from({ length: approval.settings.layers }, (_, index) => {
        const layer = index + 1;
        const given = approval.approvals[index];
        if (given) {
          return { layer, state: 'approved' as const, by: named(given.userId), at: given.at, reason: null };
        }
        if (approval.rejection?.layer === layer) {
          return {
            layer,
            state: 'rejected' as const,
            by: named(approval.rejection.userId),
            at: approval.rejection.at,
            reason: approval.rejection.reason,
          };
        }
        const open = waiting === layer && state.status === GIN_STATUS.approveInProgress;
        return {
          layer,
          state: open ? ('waiting' as const) : ('not_reached' as const),
          by: null,
          at: null,
          reason: null,
        };
      })
    : [];

  return {
    id: ginId,
    reference: state.reference,
    reason: state.reason,
    remark: state.remark,
    status: state.status,
    warehouse: { id: state.warehouseId, code: warehouse?.code ?? '', name: warehouse?.name ?? '' },
    lines: state.lines.map((line) => ({ master_code: coded(line.masterCodeId), quantity: line.quantity })),
    total_quantity: state.lines.reduce((sum, line) => sum + line.quantity, 0),
    created_by: named(state.createdBy),
    created_at: state.createdAt,
    updated_at: state.updatedAt,
    submitted_at: state.submittedAt,
    approval: approval
      ? {
          layers: approval.settings.layers,
          reminder_minutes: approval.settings.reminderSeconds / 60,
          allow_same_approver: approval.settings.allowSameApprover,
          current_layer: state.status === GIN_STATUS.approveInProgress ? waiting : null,
          steps,
        }
      : null,
    cancellation: state.cancellation
      ? { by: named(state.cancellation.userId), at: state.cancellation.at, reason: state.cancellation.reason }
      : null,
    issue: {
      attempt: state.issue.attempt,
      failure: state.issue.failure
        ? { at: state.issue.failure.at, lines: stockLines(state.issue.failure.lines) }
        : null,
      issued: state.issue.issued
        ? { at: state.issue.issued.at, lines: stockLines(state.issue.issued.lines) }
        : null,
    },
    timeline: timeline.map((entry) => {
      const data = entry.data as {
        layer?: number;
        reason?: string;
        recipients?: string[];
        lines?: GinStockLine[];
        userId?: string;
      };
      const by = entry.userId ?? data.userId ?? null;
      const issueLines = entry.type === 'GinIssueFailed' || entry.type === 'GinCompleted';
      return {
        type: entry.type,
        at: entry.at,
        by: by ? named(by) : null,
        layer: data.layer ?? null,
        reason: entry.type === 'GinRejected' || entry.type === 'GinCancelled' ? (data.reason ?? null) : null,
        recipients: (data.recipients ?? []).map((id) => names.get(id) ?? ''),
        lines: issueLines ? stockLines(data.lines ?? []) : [],
      };
    }),
    actions: allowedActions(state, {
      userId: viewer.userId,
      holds: (key) => viewer.permissions.has(key),
    }),
  };
}
