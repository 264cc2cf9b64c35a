import type { TableSettings } from '@api/contracts/session';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiData } from './client';

/**
 * The user's table settings (spec §3): one object keyed by grid id, holding each grid's ag-grid column state.
 * Saving sends the whole object and the server's answer replaces what the console keeps.
 */

export type { TableSettings };
export type GridSettings = TableSettings[string];
export type SavedColumnState = NonNullable<GridSettings['columnState']>[number];

export const tableSettingsKeys = {
  all: ['table-settings'] as const,
  detail: () => [...tableSettingsKeys.all, 'mine'] as const,
};

export const fetchTableSettings = () => apiData<TableSettings>('/api/info/table_settings');

export function useTableSettings() {
  return useQuery({
    queryKey: tableSettingsKeys.detail(),
    queryFn: fetchTableSettings,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });
}

/** Replaces the stored settings with `settings`; what the server answers becomes the kept copy. */
export function useSaveTableSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: TableSettings) =>
      apiData<TableSettings>('/api/info/save_table_settings', { method: 'POST', body: settings }),
    onMutate: (settings) => {
      queryClient.setQueryData(tableSettingsKeys.detail(), settings);
    },
    onSuccess: (saved) => {
      queryClient.setQueryData(tableSettingsKeys.detail(), saved);
    },
  });
}
