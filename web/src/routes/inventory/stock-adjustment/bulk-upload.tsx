import {
  ADJUSTMENT_COLUMNS,
  adjustmentTemplate,
  UPLOAD_MAX_BYTES,
  UPLOAD_MAX_ROWS,
  uploadAdjustmentFile,
} from '@web/api/stock';
import { UploadRefused, type UploadRowError } from '@web/api/upload';
import { isUnderway, useUploadDetail } from '@web/api/uploads';
import { SheetFileField, UploadRowErrors, useSheetFile } from '@web/components/sheet-upload';
import { UploadHistoryLink } from '@web/routes/uploads/history-link';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Bulk adjustment by file: a CSV (UTF-8, a BOM allowed) or XLSX with the header row and the columns master_code,
 * warehouse_code, mode, quantity, reason. A file with any bad row is refused whole and every bad row is listed;
 * a good one is applied in the background while its progress shows, then a summary: rows applied now, rows an
 * earlier upload of the same file already applied.
 */

const TEMPLATE_NAME = 'stock-adjustment-template.csv';

export function BulkUpload() {
  const { t, i18n } = useTranslation('stock');
  const notify = useNotify();
  const id = useId();
  const sheet = useSheetFile('stock', UPLOAD_MAX_BYTES);
  const [sending, setSending] = useState(false);
  const [refused, setRefused] = useState<{ message: string; rows: UploadRowError[] } | null>(null);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const status = useUploadDetail('stock_adjustment', uploadId);
  const upload = status.data;
  const number = new Intl.NumberFormat(i18n.language);

  const templateUrl = useMemo(
    () => `data:text/csv;charset=utf-8,${encodeURIComponent(adjustmentTemplate())}`,
    [],
  );

  // Tell once when the upload finishes.
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (!upload || isUnderway(upload.status) || announced.current === upload.id) return;
    announced.current = upload.id;
    if (upload.status === 'complete') {
      notify({
        kind: 'success',
        message: t('upload.done_notice', { count: upload.applied, replayed: upload.replayed }),
      });
    } else {
      notify({ kind: 'error', message: t('upload.failed_notice', { count: upload.failed }) });
    }
  }, [upload, notify, t]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const file = sheet.ready();
    if (!file) return;
    setSending(true);
    setRefused(null);
    setUploadId(null);
    try {
      const answer = await uploadAdjustmentFile(file);
      setUploadId(answer.upload_id);
      sheet.clear();
    } catch (error) {
      setRefused({
        message: messageOf(error),
        rows: error instanceof UploadRefused ? error.rows : [],
      });
    } finally {
      setSending(false);
    }
  }

  const running = (upload && isUnderway(upload.status)) || (uploadId !== null && !upload);
  const percent = upload && upload.total > 0 ? Math.round((upload.processed / upload.total) * 100) : 0;

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('upload.title')}</h2>
      <p className="muted">
        {t('upload.intro', { columns: ADJUSTMENT_COLUMNS.join(', '), rows: number.format(UPLOAD_MAX_ROWS) })}
      </p>
      <p>
        <a href={templateUrl} download={TEMPLATE_NAME}>
          {t('upload.template')}
        </a>
        {' · '}
        <UploadHistoryLink to="/inventory/stock-adjustment/upload-history" />
      </p>
      <form className="form" onSubmit={submit} noValidate aria-label={t('upload.form_label')}>
        <SheetFileField
          namespace="stock"
          sheet={sheet}
          hint={t('upload.file_hint', { max: UPLOAD_MAX_BYTES / 1024 / 1024 })}
          onChoose={() => setRefused(null)}
        />
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={sending || running}>
            {sending ? t('upload.sending') : t('upload.submit')}
          </button>
        </div>
      </form>

      {refused && (
        <div className="upload-result">
          <FormMessage kind="error">{refused.message}</FormMessage>
          {refused.rows.length > 0 && (
            <div className="upload-errors">
              <UploadRowErrors
                namespace="stock"
                rows={refused.rows}
                caption={t('upload.errors_caption', { count: refused.rows.length })}
                className="stock-table"
              />
            </div>
          )}
        </div>
      )}

      {status.isError && <FormMessage kind="error">{status.error.message}</FormMessage>}

      {uploadId !== null && (
        <div className="upload-result" aria-live="polite">
          {running && (
            <div className="upload-progress">
              <label htmlFor={`${id}-progress`}>{t('upload.progress_label')}</label>
              <progress id={`${id}-progress`} max={upload?.total || 1} value={upload?.processed ?? 0}>
                {percent}%
              </progress>
              <span className="muted">
                {t('upload.progress', {
                  processed: number.format(upload?.processed ?? 0),
                  count: upload?.total ?? 0,
                  percent,
                })}
              </span>
            </div>
          )}
          {upload && !isUnderway(upload.status) && (
            <div role="status" className="upload-summary">
              <h3>
                {upload.status === 'complete'
                  ? t('upload.summary_title', { file: upload.filename })
                  : t('upload.failed_title', { file: upload.filename })}
              </h3>
              {upload.message && <FormMessage kind="error">{upload.message}</FormMessage>}
              <dl className="stock-figures">
                <div>
                  <dt>{t('upload.applied')}</dt>
                  <dd>{number.format(upload.applied)}</dd>
                </div>
                <div>
                  <dt>{t('upload.replayed')}</dt>
                  <dd>{number.format(upload.replayed)}</dd>
                </div>
                {(upload.failed > 0 || upload.status === 'failed') && (
                  <div>
                    <dt>{t('upload.failed')}</dt>
                    <dd>{number.format(upload.failed)}</dd>
                  </div>
                )}
                {upload.status === 'failed' && upload.processed < upload.total && (
                  <div>
                    <dt>{t('upload.not_processed')}</dt>
                    <dd>{number.format(upload.total - upload.processed)}</dd>
                  </div>
                )}
              </dl>
              {upload.status === 'failed' && <p className="muted">{t('upload.retry_hint')}</p>}
            </div>
          )}
          {upload && !isUnderway(upload.status) && upload.errors.length > 0 && (
            <div className="upload-errors">
              <UploadRowErrors
                namespace="stock"
                rows={upload.errors}
                caption={t('upload.errors_caption', { count: upload.errors.length })}
                className="stock-table"
              />
            </div>
          )}
        </div>
      )}
    </section>
  );
}
