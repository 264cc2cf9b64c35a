import {
  UPLOAD_STATUSES,
  type UploadDetail,
  type UploadStatus,
  type UploadSummary,
} from '@api/contracts/sheet-uploads';
import { useQuery } from '@tanstack/react-query';
import { apiData } from './client';
import { downloadFile } from './download';

/**
 * The upload history of the bulk files (stock adjustments, purchases, orders): each kind's list endpoint for its grid, one
 * upload's detail (read again while it is still being applied), and the file as it was sent.
 */

export type { UploadDetail, UploadStatus, UploadSummary };
export { UPLOAD_STATUSES };
export type UploadKind = 'stock_adjustment' | 'purchase' | 'order' | 'listing';

const BASES: Record<UploadKind, string> = {
  stock_adjustment: '/api/inventory/stock',
  purchase: '/api/purchases',
  order: '/api/orders',
  listing: '/api/listings',
};

export const uploadListEndpoint = (kind: UploadKind) => `${BASES[kind]}/uploads`;
const uploadPath = (kind: UploadKind, id: string) => `${BASES[kind]}/upload/${encodeURIComponent(id)}`;

export const uploadKeys = {
  all: ['uploads'] as const,
  detail: (kind: UploadKind, id: string) => [...uploadKeys.all, kind, id] as const,
};

/** Pending or in progress: its counters still move. */
export const isUnderway = (status: UploadStatus) => status === 'pending' || status === 'in_progress';

export const UPLOAD_POLL_MS = 500;

/** One upload, read again every UPLOAD_POLL_MS until it is complete or failed. */
export function useUploadDetail(kind: UploadKind, id: string | null) {
  return useQuery({
    queryKey: uploadKeys.detail(kind, id ?? ''),
    queryFn: () => apiData<UploadDetail>(uploadPath(kind, id ?? '')),
    enabled: id !== null,
    refetchInterval: (query) =>
      !query.state.data || isUnderway(query.state.data.status) ? UPLOAD_POLL_MS : false,
    refetchIntervalInBackground: true,
  });
}

/** Downloads the file of an upload as it was sent. */
export const downloadUploadedFile = (kind: UploadKind, upload: Pick<UploadSummary, 'id' | 'filename'>) =>
  downloadFile(`${uploadPath(kind, upload.id)}/file`, { fileName: upload.filename });
