import { handleGoodsIssueCommand, loadGoodsIssue } from '@commands/goods-issue/goods-issue';
import { issueGoodsIssueStock } from '@commands/goods-issue/issue-stock';
import { remindApprovers } from '@commands/goods-issue/remind';
import type { GoodsIssueCommand, GoodsIssueState } from '@domain/goods-issue/decider';
import type { GinEvent } from '@domain/goods-issue/events';
import { final } from './final';
import type { ActivityDeps } from './index';

/**
 * The goods issue workflow's activities: record a step on the note (the decider decides again on the stored
 * stream, with the workflow's deterministic command id, so a retry records once), remind a layer's approvers, issue
 * the stock, and read the note back. A domain refusal is final (non-retryable): retrying cannot change it.
 */

export function createGoodsIssueActivities(deps: ActivityDeps) {
  return {
    async recordGoodsIssue(input: {
      tenantId: string;
      ginId: string;
      command: GoodsIssueCommand;
      commandId: string;
      userId?: string;
      at: string;
    }): Promise<GinEvent[]> {
      return final(async () => {
        const result = await handleGoodsIssueCommand(deps.store, input.tenantId, input.ginId, input.command, {
          ...(input.userId ? { userId: input.userId } : {}),
          commandId: input.commandId,
          occurredAt: input.at,
        });
        return result.events;
      });
    },

    async remindGoodsIssueApprovers(input: {
      tenantId: string;
      ginId: string;
      layer: number;
      reminder: number;
      at: string;
      workflowId: string;
    }): Promise<GinEvent[]> {
      return final(() => remindApprovers(deps.db, deps.store, deps.mailer, input));
    },

    async issueGoodsIssueStock(input: {
      tenantId: string;
      ginId: string;
      workflowId: string;
      attempt: number;
      at: string;
      userId?: string;
    }): Promise<GinEvent[]> {
      return final(() => issueGoodsIssueStock(deps.db, deps.store, input));
    },

    async loadGoodsIssueState(input: { tenantId: string; ginId: string }): Promise<GoodsIssueState | null> {
      return (await loadGoodsIssue(deps.store, input.tenantId, input.ginId))?.state ?? null;
    },
  };
}
