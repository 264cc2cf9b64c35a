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
  decide,
  evolve,
  GIN_STATUS,
  type GinStatus,
  type GoodsIssueCommand,
  type GoodsIssueState,
  isFinished,
  waitingLayer,
} from '../domain/goods-issue/decider';
import type { GinEvent } from '../domain/goods-issue/events';
import { refusalOf } from '../domain/shared/errors';
import type { createGoodsIssueActivities } from './activities/goods-issue';
import {
  approveGoodsIssueUpdate,
  cancelGoodsIssueUpdate,
  type GoodsIssueOutcome,
  type GoodsIssueWorkflowInput,
  goodsIssueStateQuery,
  MAX_REMINDERS_PER_LAYER,
  rejectGoodsIssueUpdate,
  retryGoodsIssueUpdate,
  submitGoodsIssueUpdate,
} from './goods-issue-protocol';
import { refusal } from './support/refusal';

type GoodsIssueActivities = ReturnType<typeof createGoodsIssueActivities>;

const activities = proxyActivities<GoodsIssueActivities>({
  // A step is a few reads and appends (the issue: two stock commands a line at most): well within a minute. A
  // worker that dies mid-step loses it to this timeout; the retry (same command ids) records and moves once.
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

/** The code and parameters of a step refused for good (a domain refusal), or null for any other failure. */
function permanentRefusal(error: unknown): { code: string; params: Record<string, string | number> } | null {
  if (
    error instanceof ActivityFailure &&
    error.cause instanceof ApplicationFailure &&
    error.cause.nonRetryable
  ) {
    const details = error.cause.details?.[0];
    return {
      code: error.cause.type ?? 'GIN_WRONG_STATE',
      params: details && typeof details === 'object' ? (details as Record<string, string | number>) : {},
    };
  }
  return null;
}

/**
 * The life of one goods issue note, `goods-issue-<tenant>-<id>` (domain/goods-issue/decider.ts): it waits for its
 * creator to submit it, then for each approval layer in turn, reminding a layer's approvers when it waits longer
 * than the account's setting (at most MAX_REMINDERS_PER_LAYER times), and once the last layer approves it issues
 * the stock and records Complete — or, short of stock, the failure, and waits for a retry or a cancel.
 *
 * People's actions are updates. The validator decides the action on the note as the workflow holds it (the same
 * decider the note's stream uses) and refuses a wrong state, a user without the layer's key, the same user at two
 * layers, a second click. The handler applies the decision at once, before its first await, so an update arriving
 * while the first is being recorded is judged on the new state (a double approval: exactly one counts); the note's
 * events are then recorded one after another in the order decided. The workflow ends once the note is Complete or
 * Cancel. A draft's edits are the API's own (the note's stream refuses them once submitted): the workflow keeps no
 * lines of its own, and the issue reads them from the note.
 */
export async function goodsIssueWorkflow(input: GoodsIssueWorkflowInput): Promise<GoodsIssueOutcome> {
  const { workflowId } = workflowInfo();
  const { tenantId, ginId } = input;
  let state: GoodsIssueState = input.state;
  let issuing = false;
  /** Who acted last: the stock issued after the last approval (or a retry) is recorded under their name. */
  let lastActor: string | undefined;
  let writing: Promise<unknown> = Promise.resolve();
  let writes = 0;

  const now = () => new Date().toISOString();
  const outcome = (): GoodsIssueOutcome => ({
    status: state.status as GinStatus,
    currentLayer: waitingLayer(state),
    issueFailed: state.issue.failure !== null,
  });

  /** The events a command would record now, or the refusal the API turns into its 4xx answer. */
  function judge(command: GoodsIssueCommand): GinEvent[] {
    try {
      return decide(command, state);
    } catch (error) {
      const refused = refusalOf(error);
      if (refused) throw refusal(refused.code, refused.params);
      throw error;
    }
  }

  /** Runs `write` after every write started before it: the note records its events in the order decided. */
  function serially<T>(write: () => Promise<T>): Promise<T> {
    writes += 1;
    const result = writing.then(write);
    writing = result.then(
      () => undefined,
      () => undefined,
    );
    return result.finally(() => {
      writes -= 1;
    });
  }

  /** Decides a person's action, applies it at once, records it; answers the note's outcome. */
  async function act(command: GoodsIssueCommand & { at: string }, commandId: string, userId: string) {
    const events = judge(command);
    const before = state;
    state = events.reduce(evolve, state);
    lastActor = userId;
    try {
      await serially(() =>
        activities.recordGoodsIssue({ tenantId, ginId, command, commandId, userId, at: command.at }),
      );
    } catch (error) {
      // The note refused what was decided here (it changed behind the workflow): take the note as it stands.
      state = (await activities.loadGoodsIssueState({ tenantId, ginId })) ?? before;
      const refused = permanentRefusal(error);
      if (refused) throw refusal(refused.code, refused.params);
      throw error;
    }
    return outcome();
  }

  /** Resolves once the approved note's stock is issued, or its issue failed. */
  const issueSettled = () =>
    condition(() => state.status !== GIN_STATUS.approved || state.issue.failure !== null);

  setHandler(goodsIssueStateQuery, () => ({ state, issuing }));

  setHandler(
    submitGoodsIssueUpdate,
    (args) =>
      act(
        { type: 'SubmitGoodsIssue', userId: args.userId, settings: args.settings, at: now() },
        `${workflowId}:submit`,
        args.userId,
      ),
    {
      validator: (args) => {
        judge({ type: 'SubmitGoodsIssue', userId: args.userId, settings: args.settings, at: now() });
      },
    },
  );

  setHandler(
    approveGoodsIssueUpdate,
    async (args) => {
      const command = {
        type: 'ApproveGoodsIssue' as const,
        userId: args.userId,
        keys: args.keys,
        layer: args.layer,
        at: now(),
      };
      const result = await act(command, `${workflowId}:approve:${args.layer}`, args.userId);
      // The last approval answers once the stock is issued (or could not be).
      if (result.status === GIN_STATUS.approved) await issueSettled();
      return outcome();
    },
    {
      validator: (args) => {
        judge({
          type: 'ApproveGoodsIssue',
          userId: args.userId,
          keys: args.keys,
          layer: args.layer,
          at: now(),
        });
      },
    },
  );

  setHandler(
    rejectGoodsIssueUpdate,
    (args) =>
      act(
        {
          type: 'RejectGoodsIssue',
          userId: args.userId,
          keys: args.keys,
          layer: args.layer,
          reason: args.reason,
          at: now(),
        },
        `${workflowId}:reject:${args.layer}`,
        args.userId,
      ),
    {
      validator: (args) => {
        judge({
          type: 'RejectGoodsIssue',
          userId: args.userId,
          keys: args.keys,
          layer: args.layer,
          reason: args.reason,
          at: now(),
        });
      },
    },
  );

  setHandler(
    cancelGoodsIssueUpdate,
    (args) => {
      if (issuing) throw refusal('GIN_ISSUING');
      return act(
        { type: 'CancelGoodsIssue', userId: args.userId, reason: args.reason, at: now() },
        `${workflowId}:cancel`,
        args.userId,
      );
    },
    {
      validator: (args) => {
        if (issuing) throw refusal('GIN_ISSUING');
        judge({ type: 'CancelGoodsIssue', userId: args.userId, reason: args.reason, at: now() });
      },
    },
  );

  setHandler(
    retryGoodsIssueUpdate,
    async (args) => {
      if (issuing) throw refusal('GIN_ISSUING');
      await act(
        { type: 'RetryGoodsIssue', userId: args.userId, keys: args.keys, at: now() },
        `${workflowId}:retry:${state.issue.attempt + 1}`,
        args.userId,
      );
      await issueSettled();
      return outcome();
    },
    {
      validator: (args) => {
        if (issuing) throw refusal('GIN_ISSUING');
        judge({ type: 'RetryGoodsIssue', userId: args.userId, keys: args.keys, at: now() });
      },
    },
  );

  /** Waits for the layer now waiting to be decided, reminding its approvers at the account's interval. */
  async function waitForLayer(): Promise<void> {
    const layer = waitingLayer(state);
    const decided = () => waitingLayer(state) !== layer || state.status !== GIN_STATUS.approveInProgress;
    if (layer === null || !state.approval) return;
    const interval = state.approval.settings.reminderSeconds * 1000;
    for (let reminder = 1; reminder <= MAX_REMINDERS_PER_LAYER; reminder++) {
      if (await condition(decided, interval)) return;
      const events = await serially(() =>
        activities.remindGoodsIssueApprovers({ tenantId, ginId, layer, reminder, at: now(), workflowId }),
      );
      state = events.reduce(evolve, state);
    }
    await condition(decided);
  }

  /** Issues the approved note's stock: Complete, or the failure recorded on the note. */
  async function issue(): Promise<void> {
    issuing = true;
    try {
      const attempt = state.issue.attempt;
      const events = await serially(() =>
        activities.issueGoodsIssueStock({
          tenantId,
          ginId,
          workflowId,
          attempt,
          at: now(),
          ...(lastActor ? { userId: lastActor } : {}),
        }),
      );
      state = events.reduce(evolve, state);
    } finally {
      issuing = false;
    }
  }

  while (state.status !== 0 && !isFinished(state)) {
    if (state.status === GIN_STATUS.pending) {
      await condition(() => state.status !== GIN_STATUS.pending);
    } else if (state.status === GIN_STATUS.approveInProgress) {
      await waitForLayer();
    } else if (state.issue.failure) {
      await condition(() => state.status !== GIN_STATUS.approved || state.issue.failure === null);
    } else {
      await issue();
    }
  }
  await condition(() => writes === 0 && allHandlersFinished());
  return outcome();
}
