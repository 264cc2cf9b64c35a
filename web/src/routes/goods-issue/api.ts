import { GOODS_ISSUE_VIEW as GIN_VIEW } from '@domain/shared/live-views';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from '@web/api/client';

export { GIN_VIEW };

/**
 * The goods issue notes API (api/goods-issue): the list (a grid endpoint), one note in full, the people's actions
 * (each answers the note as it now stands), and the account's approval settings.
 */

export const GIN_ENDPOINT = '/api/inventory/goods-issue-notes';
export const APPROVAL_SETTINGS_ENDPOINT = '/api/inventory/approval-settings';
/** The live view the projection announces changed notes in. */

export const GIN_STATUSES = [1, 2, 3, 4, 5] as const;
export type GinStatus = (typeof GIN_STATUSES)[number];
export const REFERENCE_MAX = 100;
export const REASON_MAX = 500;
export const REMARK_MAX = 1000;
export const QUANTITY_MAX = 1_000_000_000;
export const REMINDER_MAX_MINUTES = 10_080;

/** The keys that let a user see notes: any inventory key or any approval layer key (the owner holds all). */
export const GOODS_ISSUE_VIEW_KEYS = [
  'gin-approval-layer-1',
  'gin-approval-layer-2',
  'gin-approval-layer-3',
  'inventory-master-code',
  'inventory-combo-list',
  'inventory-stock-adjustment',
  'inventory-list-export',
  'inventory-manage-sync',
  'inventory-stock-movement',
  'inventory-warehouse',
  'inventory-rack',
  'inventory-categories',
] as const;

export function mayViewGoodsIssues(can: (key: string) => boolean): boolean {
  return GOODS_ISSUE_VIEW_KEYS.some(can);
}
export const MANAGE_KEY = 'inventory-stock-adjustment';

interface Named {
  id: string;
  name: string;
}
interface Coded {
  id: string;
  code: string;
  name: string;
}

export interface GinRow {
  id: string;
  reference: string;
  reason: string;
  status: GinStatus;
  warehouse: Coded;
  layers: number | null;
  current_layer: number | null;
  line_count: number;
  total_quantity: number;
  issue_failed: boolean;
  created_by: Named;
  created_at: string;
  updated_at: string;
  waiting_for_me: boolean;
}

export interface StockLine {
  master_code: Coded;
  quantity: number;
  on_hand: number;
}

export interface ApprovalStep {
  layer: number;
  state: 'approved' | 'rejected' | 'waiting' | 'not_reached';
  by: Named | null;
  at: string | null;
  reason: string | null;
}

export interface TimelineItem {
  type: string;
  at: string;
  by: Named | null;
  layer: number | null;
  reason: string | null;
  recipients: string[];
  lines: StockLine[];
}

export interface GinDetail {
  id: string;
  reference: string;
  reason: string;
  remark: string;
  status: GinStatus;
  warehouse: Coded;
  lines: { master_code: Coded; quantity: number }[];
  total_quantity: number;
  created_by: Named;
  created_at: string;
  updated_at: string;
  submitted_at: string | null;
  approval: {
    layers: number;
    reminder_minutes: number;
    allow_same_approver: boolean;
    current_layer: number | null;
    steps: ApprovalStep[];
  } | null;
  cancellation: { by: Named; at: string; reason: string } | null;
  issue: {
    attempt: number;
    failure: { at: string; lines: StockLine[] } | null;
    issued: { at: string; lines: StockLine[] } | null;
  };
  timeline: TimelineItem[];
  actions: {
    edit: boolean;
    submit: boolean;
    approve: number | null;
    reject: number | null;
    cancel: boolean;
    retry: boolean;
  };
}

export interface GinBody {
  warehouse_id: string;
  reference: string;
  reason: string;
  remark: string;
  lines: { master_code_id: string; quantity: number }[];
}

export interface ApprovalSettings {
  layers: number;
  reminder_minutes: number;
  allow_same_approver: boolean;
  updated_at: string | null;
}

export const ginKeys = {
  all: ['goods-issue'] as const,
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
    onSuccess: (answer) => queryClient.setQueryData(ginKeys.detail(answer.data.id), answer.data),
  });
}

export type GinAction = 'submit' | 'approve' | 'reject' | 'cancel' | 'retry';

export function useGoodsIssueAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, body }: { id: string; action: GinAction; body?: Record<string, unknown> }) =>
      api<Answer<GinDetail>>(`${one(id)}/${action}`, { method: 'POST', body: body ?? {} }),
    onSuccess: (answer) => queryClient.setQueryData(ginKeys.detail(answer.data.id), answer.data),
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
    mutationFn: (body: Omit<ApprovalSettings, 'updated_at'>) =>
      api<Answer<ApprovalSettings>>(APPROVAL_SETTINGS_ENDPOINT, { method: 'PUT', body }),
    onSuccess: (answer) => queryClient.setQueryData(ginKeys.settings(), answer.data),
  });
}
