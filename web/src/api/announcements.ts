import type {
  AcknowledgeAnnouncement,
  AddAnnouncement,
  AdminAnnouncement,
  Announcement,
  SellerAnnouncement,
} from '@api/contracts/announcements';
import type { AckStatus } from '@domain/platform/announcements';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { type Answer, api, apiData } from './client';

/**
 * Announcements (spec §3–5, §8): the provider's admins write them; sellers see the current ones, highest priority
 * first, are prompted at sign-in, and answer acknowledged (100), rejected (110) or read (120).
 */

export type { AckStatus, AdminAnnouncement, Announcement, SellerAnnouncement };
export const ACK_ACCEPT: AckStatus = 100;
export const ACK_REJECT: AckStatus = 110;
export const ACK_READ: AckStatus = 120;

/** What the admin form sends (the id too on update): the contract's body, a field left empty sent as missing so the
 * server names it (spec §5). */
export type AnnouncementFields = Omit<z.input<typeof AddAnnouncement>, 'priority' | 'start_at' | 'end_at'> & {
  priority: number | null;
  start_at?: string;
  end_at?: string;
};

export type Acknowledgement = z.input<typeof AcknowledgeAnnouncement>;

/** The admin grid reads its pages itself (components/data-grid); this is its endpoint. */
export const ADMIN_ANNOUNCEMENTS_ENDPOINT = '/api/admin/announcement';

export const announcementKeys = {
  all: ['announcements'] as const,
  lists: () => [...announcementKeys.all, 'list'] as const,
  list: (scope: 'current' | 'prompt' | 'admin') => [...announcementKeys.lists(), scope] as const,
  details: () => [...announcementKeys.all, 'detail'] as const,
  detail: (id: string, scope: 'seller' | 'admin' = 'seller') =>
    [...announcementKeys.details(), scope, id] as const,
};

// ---- sellers ----

export function useAnnouncements() {
  return useQuery({
    queryKey: announcementKeys.list('current'),
    queryFn: () => apiData<SellerAnnouncement[]>('/api/announcement'),
  });
}

export function useAnnouncement(id: string | null) {
  return useQuery({
    queryKey: announcementKeys.detail(id ?? ''),
    queryFn: () => apiData<SellerAnnouncement>(`/api/announcement/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

/** The ones to prompt at sign-in, highest priority first. */
export function usePromptAnnouncements(enabled: boolean) {
  return useQuery({
    queryKey: announcementKeys.list('prompt'),
    queryFn: () => apiData<SellerAnnouncement[]>('/api/announcement/prompt'),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

export function useAcknowledgeAnnouncement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Acknowledgement) =>
      api<Answer<{ id: string; status: AckStatus; dont_show_again: boolean }>>(
        '/api/announcement/acknowledge',
        {
          method: 'POST',
          body,
        },
      ),
    onSuccess: (_answer, { id }) => {
      // The prompt list is left alone: the open prompt walks through the list it started with.
      queryClient.invalidateQueries({ queryKey: announcementKeys.list('current') });
      queryClient.invalidateQueries({ queryKey: announcementKeys.detail(id) });
    },
  });
}

// ---- provider admins ----

export function useAdminAnnouncement(id: string | null) {
  return useQuery({
    queryKey: announcementKeys.detail(id ?? '', 'admin'),
    queryFn: () => apiData<Announcement>(`${ADMIN_ANNOUNCEMENTS_ENDPOINT}/${encodeURIComponent(id ?? '')}`),
    enabled: id !== null,
  });
}

function useInvalidateAnnouncements() {
  const queryClient = useQueryClient();
  return () => {
    queryClient.invalidateQueries({ queryKey: announcementKeys.lists() });
    queryClient.invalidateQueries({ queryKey: announcementKeys.details() });
  };
}

export function useCreateAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: (body: AnnouncementFields) =>
      api<Answer<Announcement>>(`${ADMIN_ANNOUNCEMENTS_ENDPOINT}/add`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useUpdateAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: (body: AnnouncementFields & { id: string }) =>
      api<Answer<Announcement>>(`${ADMIN_ANNOUNCEMENTS_ENDPOINT}/update`, { method: 'POST', body }),
    onSuccess: invalidate,
  });
}

export function useDeleteAnnouncement() {
  const invalidate = useInvalidateAnnouncements();
  return useMutation({
    mutationFn: (id: string) =>
      api<Answer<{ id: string }>>(`${ADMIN_ANNOUNCEMENTS_ENDPOINT}/delete`, { method: 'POST', body: { id } }),
    onSuccess: invalidate,
  });
}
