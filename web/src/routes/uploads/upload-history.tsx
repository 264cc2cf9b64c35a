import { withQuery } from '@web/api/client';
import { DownloadDenied } from '@web/api/download';
import {
  downloadUploadedFile,
  UPLOAD_STATUSES,
  type UploadKind,
  type UploadStatus,
  type UploadSummary,
  uploadListEndpoint,
  useUploadDetail,
} from '@web/api/uploads';
import { GridScreen, type RowActions } from '@web/components/grid-screen';
import { ModalDialog } from '@web/components/modal-dialog';
import { UploadRowErrors } from '@web/components/sheet-upload';
import { StatusFilter } from '@web/components/status-filter';
import { dateFilter, textFilter } from '@web/routes/inventory/components/grid-filters';
import { FormMessage, messageOf } from '@web/shell/form';
import { dateTimeFormatter } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef } from 'ag-grid-community';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './uploads.css';

/**
 * The upload history of one kind of bulk file (stock adjustments, purchases, orders): each file sent, who sent it and when,
 * its status (pending, in progress, complete, failed) and its counts, filtered by status and date; a row opens the
 * upload with every row refused and why, and the file as it was sent.
 */

const BADGES: Record<UploadStatus, string> = {
  pending: 'badge badge-muted',
  in_progress: 'badge badge-new',
  complete: 'badge',
  failed: 'badge badge-warning',
};

function StatusBadge({ status }: { status: UploadStatus }) {
  const { t } = useTranslation('uploads');
  return <span className={BADGES[status]}>{t(`status.${status}`)}</span>;
}

function useUploadColumns({ onOpen }: RowActions<UploadSummary>): ColDef<UploadSummary>[] {
  const { t, i18n } = useTranslation('uploads');
  return useMemo(() => {
    const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
    const number = new Intl.NumberFormat(i18n.language);
    const count = (colId: 'total' | 'applied' | 'replayed' | 'failed'): ColDef<UploadSummary> => ({
      colId,
      headerName: t(`columns.${colId}`),
      headerTooltip: t(`columns.${colId}_hint`),
      valueGetter: ({ data }) => (data ? number.format(data[colId]) : ''),
      type: 'numericColumn',
      minWidth: 110,
    });
    return [
      {
        colId: 'created_at',
        headerName: t('columns.created_at'),
        valueGetter: ({ data }) => (data ? dateTime(data.created_at) : ''),
        sortable: true,
        minWidth: 190,
        ...dateFilter<UploadSummary>(),
      },
      {
        colId: 'filename',
        headerName: t('columns.filename'),
        sortable: true,
        minWidth: 200,
        flex: 1,
        tooltipValueGetter: ({ data }) => data?.filename ?? '',
        cellRenderer: ({ data }: { data?: UploadSummary }) =>
          data ? (
            <button type="button" className="button-link" onClick={() => onOpen?.(data)}>
              {data.filename}
            </button>
          ) : null,
        ...textFilter<UploadSummary>(),
      },
      {
        colId: 'user',
        headerName: t('columns.user'),
        valueGetter: ({ data }) => (data ? ((data.user?.name || data.user?.email) ?? t('removed_user')) : ''),
        sortable: true,
        minWidth: 170,
        ...textFilter<UploadSummary>(),
      },
      {
        colId: 'status',
        headerName: t('columns.status'),
        sortable: true,
        minWidth: 130,
        cellRenderer: ({ data }: { data?: UploadSummary }) =>
          data ? <StatusBadge status={data.status} /> : null,
      },
      count('total'),
      count('applied'),
      count('replayed'),
      count('failed'),
      {
        colId: 'finished_at',
        headerName: t('columns.finished_at'),
        valueGetter: ({ data }) => (data?.finished_at ? dateTime(data.finished_at) : ''),
        minWidth: 190,
      },
    ] satisfies ColDef<UploadSummary>[];
  }, [t, i18n.language, onOpen]);
}

function UploadDialog({ kind, id, onClose }: { kind: UploadKind; id: string; onClose(): void }) {
  const { t, i18n } = useTranslation('uploads');
  const notify = useNotify();
  const detail = useUploadDetail(kind, id);
  const [downloading, setDownloading] = useState(false);
  const upload = detail.data;
  const dateTime = dateTimeFormatter(i18n.language, { seconds: true });
  const number = new Intl.NumberFormat(i18n.language);

  async function download() {
    if (!upload) return;
    setDownloading(true);
    try {
      await downloadUploadedFile(kind, upload);
    } catch (error) {
      notify({
        kind: 'error',
        message: error instanceof DownloadDenied ? t('common:messages.download_denied') : messageOf(error),
      });
    } finally {
      setDownloading(false);
    }
  }

  const facts: [string, string][] = upload
    ? [
        [t('columns.user'), (upload.user?.name || upload.user?.email) ?? t('removed_user')],
        [t('columns.created_at'), dateTime(upload.created_at)],
        [t('detail.started_at'), upload.started_at ? dateTime(upload.started_at) : '—'],
        [t('columns.finished_at'), upload.finished_at ? dateTime(upload.finished_at) : '—'],
        [t('columns.total'), number.format(upload.total)],
        [t('columns.applied'), number.format(upload.applied)],
        [t('columns.replayed'), number.format(upload.replayed)],
        [t('columns.failed'), number.format(upload.failed)],
      ]
    : [];

  return (
    <ModalDialog
      title={upload ? t('detail.title', { file: upload.filename }) : t('detail.loading')}
      onClose={onClose}
      closeLabel={t('detail.close')}
      size="large"
      footer={
        upload?.has_file && (
          <button type="button" className="button" onClick={download} disabled={downloading}>
            {t('detail.download')}
          </button>
        )
      }
    >
      {detail.isError && <FormMessage kind="error">{detail.error.message}</FormMessage>}
      {upload && (
        <div className="upload-detail">
          <p>
            <StatusBadge status={upload.status} />
          </p>
          {upload.message && <FormMessage kind="error">{upload.message}</FormMessage>}
          <dl className="upload-facts">
            {facts.map(([term, value]) => (
              <div key={term}>
                <dt>{term}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
          {upload.errors.length > 0 ? (
            <div className="upload-history-errors">
              <UploadRowErrors
                namespace="uploads"
                rows={upload.errors}
                caption={t('detail.errors_caption', { count: upload.errors.length })}
                className="upload-history-table"
              />
            </div>
          ) : (
            <p className="muted">{t('detail.no_errors')}</p>
          )}
        </div>
      )}
    </ModalDialog>
  );
}

export function UploadHistory({ kind }: { kind: UploadKind }) {
  const { t } = useTranslation('uploads');
  const [status, setStatus] = useState('');
  return (
    <GridScreen<UploadSummary>
      namespace="uploads"
      prefix={kind}
      gridId={`uploads.${kind}`}
      endpoint={withQuery(uploadListEndpoint(kind), { status: status || undefined })}
      useColumns={useUploadColumns}
      search={false}
      filters={
        <StatusFilter
          label={t('status_filter')}
          allLabel={t('all_statuses')}
          value={status}
          onChange={setStatus}
          options={UPLOAD_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
        />
      }
      detail={({ row, onClose }) => <UploadDialog kind={kind} id={row.id} onClose={onClose} />}
    />
  );
}
