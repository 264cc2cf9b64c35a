import type {
  ApprovalSettingsAnswer,
  ApprovalSettingsBody,
  ApprovalStep,
  GoodsIssueBody,
  GoodsIssueDetail,
  GoodsIssueListRow,
  GoodsIssueStockLine,
  GoodsIssueTimelineItem,
} from '@api/contracts/goods-issue';
import { PERMISSION_AREAS } from '@domain/access/permissions';
import { GIN_MANAGE_KEY, GIN_STATUSES, type GinStatus } from '@domain/goods-issue/decider';
import { GOODS_ISSUE_VIEW as GIN_VIEW } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/**
 * The goods issue notes API (api/goods-issue): the list (a grid endpoint), one note in full, the people's actions
 * (each answers the note as it now stands), and the account's approval settings. The shapes are the contract's
 * (api/contracts/goods-issue.ts), with the status narrowed to the spec's five.
 */

export { REMINDER_MAX_MINUTES } from '@api/contracts/goods-issue';
export { GIN_MAX_QUANTITY as QUANTITY_MAX } from '@domain/goods-issue/decider';
export type { ApprovalStep };
export { GIN_STATUSES, GIN_VIEW, type GinStatus };

export const GIN_ENDPOINT = '/api/inventory/goods-issue-notes';
export const APPROVAL_SETTINGS_ENDPOINT = '/api/inventory/approval-settings';

/** The keys that let a user see notes: any approval layer key or any inventory key (the owner holds all). */
export const GOODS_ISSUE_VIEW_KEYS = [
  ...PERMISSION_AREAS.goodsIssueNotes,
  ...PERMISSION_AREAS.inventory,
] as const;

export function mayViewGoodsIssues(can: (key: string) => boolean): boolean {
  return GOODS_ISSUE_VIEW_KEYS.some(can);
}
export const MANAGE_KEY = GIN_MANAGE_KEY;

export type GinRow = Omit<GoodsIssueListRow, 'status'> & { status: GinStatus };
export type GinDetail = Omit<GoodsIssueDetail, 'status'> & { status: GinStatus };
export type StockLine = GoodsIssueStockLine;
export type TimelineItem = GoodsIssueTimelineItem;
export type GinBody = Required<GoodsIssueBody>;
export type ApprovalSettings = ApprovalSettingsAnswer;

/** Goods issue notes' query keys: the lists (a grid's pages), one note, and the approval settings. */
export const ginKeys = {
  all: ['goods-issue'] as const,
  lists: () => [...ginKeys.all, 'list'] as const,
  list: (query: Record<string, unknown>) => [...ginKeys.lists(), query] as const,
  detail: (id: string) => [...ginKeys.all, 'detail', id] as const,
  settings: () => [...ginKeys.all, 'settings'] as const,
};

const one = (id: string) => `${GIN_ENDPOINT}/${encodeURIComponent(id)}`;

export function useGoodsIssue(id: string) {
  return useQuery({ queryKey: ginKeys.detail(id), queryFn: () => apiData<GinDetail>(one(id)) });
}

/** Creates a note (no id) or edits a draft; the form disables its button while the call is under way. */
export function useSaveGoodsIssue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: GinBody }) =>
      api<Answer<GinDetail>>(id ? one(id) : GIN_ENDPOINT, { method: id ? 'PUT' : 'POST', body }),
    onSuccess: (answer) => {
      queryClient.setQueryData(ginKeys.detail(answer.data.id), answer.data);
      queryClient.invalidateQueries({ queryKey: ginKeys.lists() });
    },
  });
}

export type GinAction = 'submit' | 'approve' | 'reject' | 'cancel' | 'retry';

export function useGoodsIssueAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: GinAction; body?: Record<string, unknown> }) =>
      api<Answer<GinDetail>>(`${one(id)}/${action}`, { method: 'POST', body: body ?? {} }),
    onSuccess: (answer) => {
      queryClient.setQueryData(ginKeys.detail(answer.data.id), answer.data);
      queryClient.invalidateQueries({ queryKey: ginKeys.lists() });
    },
  });
}

export function useApprovalSettings() {
  return useQuery({
    queryKey: ginKeys.settings(),
    queryFn: () => apiData<ApprovalSettings>(APPROVAL_SETTINGS_ENDPOINT),
  });
}

export function useSaveApprovalSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ApprovalSettingsBody) =>
      api<Answer<ApprovalSettings>>(APPROVAL_SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(ginKeys.settings(), answer.data),
  });
}
