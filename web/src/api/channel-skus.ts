import type {
  ChannelSkuKey,
  ChannelSkuView,
  DownloadStatusView,
  LinkAnswer,
} from '@api/contracts/channel-skus';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Answer, api, apiData } from './client';

/**
 * Products → download status (api/channels): each store's download of its marketplace items, starting downloads,
 * and linking the channel SKUs they brought in to master codes.
 */

export type DownloadStatus = DownloadStatusView;
export type ChannelSku = ChannelSkuView;

export const CHANNEL_SKUS_ENDPOINT = '/api/products/channel-skus';
const STATUS_ENDPOINT = '/api/products/download-status';

export const downloadKeys = { all: ['download-status'] as const };

const running = (status: DownloadStatus) => status.status === 'pending' || status.status === 'downloading';

/** The stores' downloads; asked again every two seconds while one runs, so its end shows. */
export function useDownloadStatuses() {
  return useQuery({
    queryKey: downloadKeys.all,
    queryFn: () => apiData<DownloadStatus[]>(STATUS_ENDPOINT),
    refetchInterval: (query) => (query.state.data?.some(running) ? 2_000 : 30_000),
  });
}

export function useStartDownload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (storeIds: string[]) =>
      api<Answer<DownloadStatus[]>>(STATUS_ENDPOINT, { method: 'POST', body: { store_ids: storeIds } }),
    onSuccess: () => client.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}

/** Links a channel SKU to a master code (`masterCodeId`), or unlinks it (none). */
export function useLinkChannelSku() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ key, masterCodeId }: { key: ChannelSkuKey; masterCodeId?: string }) =>
      masterCodeId
        ? api<Answer<LinkAnswer>>(`${CHANNEL_SKUS_ENDPOINT}/link`, {
            method: 'POST',
            body: { ...key, master_code_id: masterCodeId },
          })
        : api<Answer<LinkAnswer>>(`${CHANNEL_SKUS_ENDPOINT}/unlink`, { method: 'POST', body: key }),
    onSuccess: () => client.invalidateQueries({ queryKey: downloadKeys.all }),
  });
}
