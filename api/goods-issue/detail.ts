import type { SellerSession } from '@api/auth/session';
import { type MasterCodeName, masterCodesOfTenant, placeOfTenant } from '@api/documents';
import { ApiError } from '@api/errors';
import { isUuid } from '@api/ids';
import type { TimelineEntry } from '@commands/support/document';
import { currentLayer, ginApprovalKey } from '@domain/approvals/layers';
import {
  cancellable,
  GIN_STATUS,
  type GinStockLine,
  type GoodsIssueState,
  waitingLayer,
} from '@domain/goods-issue/decider';
import type { Database } from '@infra/db';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { GinCode, type GoodsIssueBody, MANAGE_KEY } from './common';

/**
 * A note as the console shows it: its fields with the names behind the ids (warehouse, master codes, people), the
 * approval progress layer by layer, the issue's outcome, the timeline of its events (who, what, when), and which
 * actions the caller may take on it now.
 */

const Named = z.object({ id: z.string(), name: z.string() });
const Coded = z.object({ id: z.string(), code: z.string(), name: z.string() });
const StockLine = z.object({ master_code: Coded, quantity: z.number(), on_hand: z.number() });

export const ApprovalStep = z.object({
  layer: z.number(),
  state: z.enum(['approved', 'rejected', 'waiting', 'not_reached']),
  by: Named.nullable(),
  at: z.string().nullable(),
  reason: z.string().nullable(),
});

export const TimelineItem = z.object({
  type: z.string(),
  at: z.string(),
  by: Named.nullable(),
  layer: z.number().nullable(),
  reason: z.string().nullable(),
  /** Who a reminder mailed. */
  recipients: z.array(z.string()),
  /** The lines issued, or short of stock. */
  lines: z.array(StockLine),
});

export const GoodsIssueDetail = z.object({
  id: z.string(),
  reference: z.string(),
  reason: z.string(),
  remark: z.string(),
  status: z.number(),
  warehouse: Coded,
  lines: z.array(z.object({ master_code: Coded, quantity: z.number() })),
  total_quantity: z.number(),
  created_by: Named,
  created_at: z.string(),
  updated_at: z.string(),
  submitted_at: z.string().nullable(),
  approval: z
    .object({
      layers: z.number(),
      reminder_minutes: z.number(),
      allow_same_approver: z.boolean(),
      current_layer: z.number().nullable(),
      steps: z.array(ApprovalStep),
    })
    .nullable(),
  cancellation: z.object({ by: Named, at: z.string(), reason: z.string() }).nullable(),
  issue: z.object({
    attempt: z.number(),
    failure: z.object({ at: z.string(), lines: z.array(StockLine) }).nullable(),
    issued: z.object({ at: z.string(), lines: z.array(StockLine) }).nullable(),
  }),
  timeline: z.array(TimelineItem),
  /** What the caller may do now: approve/reject name the layer they would act at. */
  actions: z.object({
    edit: z.boolean(),
    submit: z.boolean(),
    approve: z.number().nullable(),
    reject: z.number().nullable(),
    cancel: z.boolean(),
    retry: z.boolean(),
  }),
});
export type GoodsIssueDetail = z.infer<typeof GoodsIssueDetail>;

export const fullName = (first: string | null, last: string | null) =>
  [first ?? '', last ?? ''].join(' ').trim();

async function namesOf(db: Kysely<Database>, tenantId: string, ids: Iterable<string>) {
  const wanted = [...new Set(ids)].filter(isUuid);
  const rows =
    wanted.length === 0
      ? []
      : await db
          .selectFrom('users')
          .select(['id', 'first_name', 'last_name'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', wanted)
          .execute();
  return new Map(rows.map((row) => [row.id, fullName(row.first_name, row.last_name)]));
}

/**
 * The body's warehouse and master codes, each the tenant's: an unknown one (or another tenant's) → 400 naming the
 * line; a combo (no stock of its own) or a master code on two lines → 400. Answers the master codes by id.
 */
export async function checkReferences(
  db: Kysely<Database>,
  tenantId: string,
  body: GoodsIssueBody,
): Promise<Map<string, MasterCodeName>> {
  const warehouse = await placeOfTenant(db, tenantId, body.warehouse_id);
  if (!warehouse) throw new ApiError(400, GinCode.warehouseNotFound, 'goods_issue.warehouse_not_found');
  const codes = await masterCodesOfTenant(
    db,
    tenantId,
    body.lines.map((line) => line.master_code_id),
  );
  const seen = new Set<string>();
  body.lines.forEach((line, index) => {
    const masterCode = codes.get(line.master_code_id);
    if (!masterCode) {
      throw new ApiError(400, GinCode.masterCodeNotFound, 'goods_issue.master_code_not_found', {
        line: index + 1,
      });
    }
    if (masterCode.type === 'combo') {
      throw new ApiError(400, GinCode.comboLine, 'goods_issue.combo_line', {
        line: index + 1,
        code: masterCode.code,
      });
    }
    if (seen.has(masterCode.id)) {
      throw new ApiError(400, GinCode.lineRepeated, 'goods_issue.line_repeated', {
        line: index + 1,
        code: masterCode.code,
      });
    }
    seen.add(masterCode.id);
  });
  return codes;
}

/** The actions the caller may take on the note now (the API and the workflow refuse the others). */
export function actionsFor(state: GoodsIssueState, session: SellerSession): GoodsIssueDetail['actions'] {
  const creator = state.createdBy === session.userId;
  const draft = state.status === GIN_STATUS.pending;
  const layer = waitingLayer(state);
  const holdsLayer = layer !== null && session.permissions.has(ginApprovalKey(layer) as never);
  const approvedEarlier =
    state.approval?.approvals.some((approval) => approval.userId === session.userId) ?? false;
  const sameAllowed = state.approval?.settings.allowSameApprover ?? false;
  const lastKey = state.approval ? ginApprovalKey(state.approval.settings.layers) : null;
  return {
    edit: draft && creator && session.permissions.has(MANAGE_KEY),
    submit: draft && creator && session.permissions.has(MANAGE_KEY),
    approve: holdsLayer && (sameAllowed || !approvedEarlier) ? layer : null,
    reject: holdsLayer ? layer : null,
    cancel: creator && cancellable(state),
    retry:
      state.status === GIN_STATUS.approved &&
      state.issue.failure !== null &&
      (creator || (lastKey !== null && session.permissions.has(lastKey as never))),
  };
}

export async function detailOf(
  db: Kysely<Database>,
  session: SellerSession,
  ginId: string,
  loaded: { state: GoodsIssueState; timeline: TimelineEntry[] },
): Promise<GoodsIssueDetail> {
  const { state, timeline } = loaded;
  const tenantId = session.tenantId;
  const people = new Set<string>([state.createdBy]);
  for (const entry of timeline) {
    if (entry.userId) people.add(entry.userId);
    const data = entry.data as { recipients?: string[] };
    for (const id of data.recipients ?? []) people.add(id);
  }
  for (const approval of state.approval?.approvals ?? []) people.add(approval.userId);
  const names = await namesOf(db, tenantId, people);
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
    actions: actionsFor(state, session),
  };
}
