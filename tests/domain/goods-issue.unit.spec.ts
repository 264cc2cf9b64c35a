import { type ApprovalSettings, ginApprovalKey } from '@domain/approvals/layers';
import {
  cancellable,
  evolve,
  GIN_STATUS,
  type GoodsIssueCommand,
  goodsIssueDecider,
  initialState,
  waitingLayer,
} from '@domain/goods-issue/decider';
import { GIN_EVENT_TYPES, type GinEvent, goodsIssueEvents } from '@domain/goods-issue/events';
import { specFor } from '@tests/support/decider';
import { describe, expect, it } from 'vitest';

/**
 * The goods issue note's decider (domain/goods-issue/decider.ts): statuses 1 Pending, 2 Complete, 3 Cancel,
 * 4 Approve in progress, 5 Approved, and what moves a note between them.
 */

const given = specFor<GoodsIssueCommand, GinEvent, typeof initialState>(goodsIssueDecider);

const AT = '2026-11-22T08:00:00.000Z';
const LATER = '2026-11-22T09:00:00.000Z';
const CREATOR = 'creator';
const FIELDS = {
  warehouseId: 'wh-1',
  reference: 'GIN-001',
  reason: 'samples for the fair',
  remark: '',
  lines: [
    { masterCodeId: 'mc-1', quantity: 2 },
    { masterCodeId: 'mc-2', quantity: 5 },
  ],
};
const settings = (layers: number, allowSameApprover = false): ApprovalSettings => ({
  layers,
  reminderSeconds: 3600,
  allowSameApprover,
});
const keys = (...layers: number[]) => layers.map(ginApprovalKey);

const created: GinEvent = {
  type: 'GinCreated',
  data: { ...FIELDS, ginId: 'gin-1', createdBy: CREATOR, at: AT },
};
const submitted = (layers: number, allowSameApprover = false): GinEvent => ({
  type: 'GinSubmitted',
  data: { userId: CREATOR, at: AT, settings: settings(layers, allowSameApprover) },
});
const approved = (layer: number, userId: string, final = false): GinEvent => ({
  type: 'GinLayerApproved',
  data: { layer, userId, at: LATER, final },
});
const failed: GinEvent = {
  type: 'GinIssueFailed',
  data: { attempt: 1, at: LATER, lines: [{ masterCodeId: 'mc-2', quantity: 5, onHand: 1 }] },
};

const stateOf = (events: GinEvent[]) => events.reduce(evolve, initialState);

describe('goods issue note: events', () => {
  it('has a schema for every event type, and the sample events pass them', () => {
    expect(Object.keys(goodsIssueEvents).sort()).toEqual([...GIN_EVENT_TYPES].sort());
    for (const event of [created, submitted(3), approved(1, 'ana'), failed]) {
      expect(goodsIssueEvents[event.type].safeParse(event.data).success, event.type).toBe(true);
    }
  });
});

describe('goods issue note: the draft', () => {
  it('is created Pending with its fields', () => {
    given([])
      .when({ type: 'CreateGoodsIssue', ginId: 'gin-1', userId: CREATOR, at: AT, ...FIELDS })
      .then([created]);
    expect(stateOf([created])).toMatchObject({ status: GIN_STATUS.pending, createdBy: CREATOR, ...FIELDS });
  });

  it('refuses a note without reference, reason or lines, with a bad quantity or a repeated master code', () => {
    const create = (fields: Partial<typeof FIELDS>) =>
      given([]).when({ type: 'CreateGoodsIssue', ginId: 'g', userId: CREATOR, at: AT, ...FIELDS, ...fields });
    create({ reference: '  ' }).thenThrows('GIN_REFERENCE_REQUIRED');
    create({ reason: '' }).thenThrows('GIN_REASON_REQUIRED');
    create({ lines: [] }).thenThrows('GIN_LINES_REQUIRED');
    create({ lines: [{ masterCodeId: 'mc-1', quantity: 0 }] }).thenThrows('GIN_QUANTITY_INVALID', {
      line: 1,
    });
    create({ lines: [{ masterCodeId: 'mc-1', quantity: 1.5 }] }).thenThrows('GIN_QUANTITY_INVALID');
    create({
      lines: [
        { masterCodeId: 'mc-1', quantity: 1 },
        { masterCodeId: 'mc-1', quantity: 2 },
      ],
    }).thenThrows('GIN_LINE_REPEATED', { line: 2 });
    create({ reference: 'x'.repeat(101) }).thenThrows('GIN_TEXT_TOO_LONG', { field: 'reference', max: 100 });
    given([created])
      .when({ type: 'CreateGoodsIssue', ginId: 'gin-1', userId: CREATOR, at: AT, ...FIELDS })
      .thenThrows('GIN_EXISTS');
  });

  it('is edited by its creator while Pending only', () => {
    const edit = (userId: string) =>
      ({ type: 'EditGoodsIssue', userId, at: LATER, ...FIELDS, reference: 'GIN-002' }) as const;
    given([created])
      .when(edit(CREATOR))
      .then([{ type: 'GinEdited', data: { ...FIELDS, reference: 'GIN-002', userId: CREATOR, at: LATER } }]);
    given([created]).when(edit('someone')).thenThrows('GIN_NOT_CREATOR', { action: 'edit' });
    given([created, submitted(1)])
      .when(edit(CREATOR))
      .thenThrows('GIN_WRONG_STATE', { status: 4, action: 'edit' });
    given([]).when(edit(CREATOR)).thenThrows('GIN_NOT_FOUND');
  });

  it('is submitted by its creator with a snapshot of the settings: Approve in progress, layer 1 waiting', () => {
    given([created])
      .when({ type: 'SubmitGoodsIssue', userId: CREATOR, at: AT, settings: settings(3) })
      .then([submitted(3)]);
    const state = stateOf([created, submitted(3)]);
    expect(state.status).toBe(GIN_STATUS.approveInProgress);
    expect(waitingLayer(state)).toBe(1);
    given([created])
      .when({ type: 'SubmitGoodsIssue', userId: 'other', at: AT, settings: settings(3) })
      .thenThrows('GIN_NOT_CREATOR', { action: 'submit' });
    given([created, submitted(1)])
      .when({ type: 'SubmitGoodsIssue', userId: CREATOR, at: AT, settings: settings(1) })
      .thenThrows('GIN_WRONG_STATE', { status: 4, action: 'submit' });
    given([created])
      .when({ type: 'SubmitGoodsIssue', userId: CREATOR, at: AT, settings: settings(4) })
      .thenThrows('APPROVAL_SETTINGS_INVALID');
  });
});

describe('goods issue note: approval', () => {
  const approve = (layer: number, userId: string, held: string[]): GoodsIssueCommand => ({
    type: 'ApproveGoodsIssue',
    userId,
    keys: held,
    layer,
    at: LATER,
  });

  it('goes through three layers in order to Approved; the last approval is final', () => {
    given([created, submitted(3)])
      .when(approve(1, 'ana', keys(1)))
      .then([approved(1, 'ana')]);
    given([created, submitted(3), approved(1, 'ana')])
      .when(approve(2, 'ben', keys(2)))
      .then([approved(2, 'ben')]);
    given([created, submitted(3), approved(1, 'ana'), approved(2, 'ben')])
      .when(approve(3, 'chen', keys(3)))
      .then([approved(3, 'chen', true)]);
    const state = stateOf([
      created,
      submitted(3),
      approved(1, 'ana'),
      approved(2, 'ben'),
      approved(3, 'chen', true),
    ]);
    expect(state.status).toBe(GIN_STATUS.approved);
    expect(waitingLayer(state)).toBeNull();
  });

  it('refuses what the approval layers refuse', () => {
    const inProgress = [created, submitted(3), approved(1, 'ana')];
    given(inProgress)
      .when(approve(2, 'ben', keys(1, 3)))
      .thenThrows('APPROVAL_KEY_MISSING');
    given(inProgress)
      .when(approve(3, 'ben', keys(3)))
      .thenThrows('APPROVAL_OUT_OF_ORDER');
    given(inProgress)
      .when(approve(2, 'ana', keys(2)))
      .thenThrows('APPROVAL_SAME_USER');
    given(inProgress)
      .when(approve(1, 'ana', keys(1)))
      .thenThrows('APPROVAL_ALREADY_GIVEN');
  });

  it('refuses approving a draft, a cancelled note or a completed one', () => {
    given([created])
      .when(approve(1, 'ana', keys(1)))
      .thenThrows('GIN_WRONG_STATE', { status: 1, action: 'approve' });
    const cancelled: GinEvent = { type: 'GinCancelled', data: { userId: CREATOR, at: LATER, reason: '' } };
    given([created, submitted(1), cancelled])
      .when(approve(1, 'ana', keys(1)))
      .thenThrows('GIN_WRONG_STATE', { status: 3, action: 'approve' });
    const complete: GinEvent = {
      type: 'GinCompleted',
      data: { attempt: 1, at: LATER, lines: [{ masterCodeId: 'mc-1', quantity: 2, onHand: 0 }] },
    };
    given([created, submitted(1), approved(1, 'ana', true), complete])
      .when(approve(1, 'ben', keys(1)))
      .thenThrows('APPROVAL_COMPLETE');
  });

  it('is rejected at any layer into Cancel, the rejection kept', () => {
    const rejected: GinEvent = {
      type: 'GinRejected',
      data: { layer: 2, userId: 'ben', at: LATER, reason: 'not needed' },
    };
    given([created, submitted(3), approved(1, 'ana')])
      .when({
        type: 'RejectGoodsIssue',
        userId: 'ben',
        keys: keys(2),
        layer: 2,
        reason: 'not needed',
        at: LATER,
      })
      .then([rejected]);
    const state = stateOf([created, submitted(3), approved(1, 'ana'), rejected]);
    expect(state.status).toBe(GIN_STATUS.cancel);
    expect(state.approval?.rejection).toEqual(rejected.data);
    given([created, submitted(3), approved(1, 'ana'), rejected])
      .when({ type: 'RejectGoodsIssue', userId: 'chen', keys: keys(3), layer: 3, reason: 'x', at: LATER })
      .thenThrows('APPROVAL_REJECTED');
  });
});

describe('goods issue note: cancel, reminders, the issue', () => {
  const cancel = (userId = CREATOR): GoodsIssueCommand => ({
    type: 'CancelGoodsIssue',
    userId,
    reason: 'changed our mind',
    at: LATER,
  });

  it('is cancelled by its creator while Pending, in approval, or Approved whose issue failed', () => {
    const cancelled: GinEvent = {
      type: 'GinCancelled',
      data: { userId: CREATOR, at: LATER, reason: 'changed our mind' },
    };
    given([created]).when(cancel()).then([cancelled]);
    given([created, submitted(2), approved(1, 'ana')])
      .when(cancel())
      .then([cancelled]);
    given([created, submitted(1), approved(1, 'ana', true), failed])
      .when(cancel())
      .then([cancelled]);
    given([created]).when(cancel('ana')).thenThrows('GIN_NOT_CREATOR', { action: 'cancel' });
    // Approved and not failed: the stock is being issued.
    given([created, submitted(1), approved(1, 'ana', true)])
      .when(cancel())
      .thenThrows('GIN_ISSUING');
    given([created, cancelled]).when(cancel()).thenThrows('GIN_WRONG_STATE', { status: 3, action: 'cancel' });
    expect(cancellable(stateOf([created, cancelled]))).toBe(false);
  });

  it('records a reminder for the layer waiting, and nothing for one no longer waiting', () => {
    const remind = (layer: number): GoodsIssueCommand => ({
      type: 'RemindGoodsIssueApprovers',
      layer,
      reminder: 1,
      recipients: ['ana'],
      at: LATER,
    });
    given([created, submitted(2)])
      .when(remind(1))
      .then([
        { type: 'GinApprovalReminded', data: { layer: 1, reminder: 1, recipients: ['ana'], at: LATER } },
      ]);
    given([created, submitted(2), approved(1, 'ana')])
      .when(remind(1))
      .then([]);
    given([created]).when(remind(1)).then([]);
  });

  it('fails, is retried by the creator or the last layer, and completes', () => {
    const approvedNote = [created, submitted(2), approved(1, 'ana'), approved(2, 'ben', true)];
    given(approvedNote)
      .when({ type: 'FailGoodsIssue', attempt: 1, lines: failed.data.lines, at: LATER })
      .then([failed]);
    const retry = (userId: string, held: string[]): GoodsIssueCommand => ({
      type: 'RetryGoodsIssue',
      userId,
      keys: held,
      at: LATER,
    });
    const retried: GinEvent = { type: 'GinIssueRetried', data: { attempt: 2, userId: 'ben', at: LATER } };
    given([...approvedNote, failed])
      .when(retry('ben', keys(2)))
      .then([retried]);
    given([...approvedNote, failed])
      .when(retry(CREATOR, []))
      .then([{ type: 'GinIssueRetried', data: { attempt: 2, userId: CREATOR, at: LATER } }]);
    given([...approvedNote, failed])
      .when(retry('ana', keys(1)))
      .thenThrows('GIN_RETRY_FORBIDDEN', { key: 'gin-approval-layer-2' });
    given(approvedNote)
      .when(retry('ben', keys(2)))
      .thenThrows('GIN_ISSUING');

    const complete: GinEvent = {
      type: 'GinCompleted',
      data: { attempt: 2, at: LATER, lines: [{ masterCodeId: 'mc-1', quantity: 2, onHand: 3 }] },
    };
    given([...approvedNote, failed, retried])
      .when({ type: 'CompleteGoodsIssue', attempt: 2, lines: complete.data.lines, at: LATER })
      .then([complete]);
    const state = stateOf([...approvedNote, failed, retried, complete]);
    expect(state.status).toBe(GIN_STATUS.complete);
    expect(state.issue).toEqual({
      attempt: 2,
      failure: null,
      issued: { at: LATER, lines: complete.data.lines },
    });
    // Before the last approval nothing completes.
    given([created, submitted(2), approved(1, 'ana')])
      .when({ type: 'CompleteGoodsIssue', attempt: 1, lines: complete.data.lines, at: LATER })
      .thenThrows('GIN_WRONG_STATE');
  });
});
