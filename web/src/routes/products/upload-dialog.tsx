import {
  downloadListingTemplate,
  LIST_SEPARATOR,
  LISTING_FILE_COLUMNS,
  LISTING_UPLOAD_ENDPOINT,
  type ListingUploadResult,
  type ListingUploadRow,
} from '@web/api/listings';
import { UPLOAD_MAX_BYTES } from '@web/api/purchases';
import { uploadFile } from '@web/api/upload';
import { ModalDialog } from '@web/components/modal-dialog';
import { SheetFileField, useSheetFile } from '@web/components/sheet-upload';
import { UploadHistoryLink } from '@web/routes/uploads/history-link';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

/**
 * Products → listings, bulk upload (spec §5 "Bulk upload"): a CSV (UTF-8 without BOM) or XLSX, one row per SKU, rows
 * sharing a handle making one listing with variants, the first row a header. Each listing is saved as a draft as the
 * editor saves it; the rows refused are listed with their code and why, those of a good listing are saved all the
 * same. The template comes as a CSV or an XLSX; every file sent is in the upload history.
 */
export function ListingUploadDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation('listings');
  const notify = useNotify();
  const sheet = useSheetFile('listings', UPLOAD_MAX_BYTES);
  const formId = useId();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<{ message: string; rows: ListingUploadRow[] } | null>(null);
  const [done, setDone] = useState<ListingUploadResult | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const file = sheet.ready();
    if (!file) return;
    setSending(true);
    setFailure(null);
    setDone(null);
    try {
      const answer = await uploadFile<ListingUploadResult>(LISTING_UPLOAD_ENDPOINT, file);
      notify({ kind: 'success', message: answer.msg });
      sheet.clear();
      setDone(answer.data);
    } catch (error) {
      // The refusal's rows carry their code too (api/listings/upload.ts).
      const rows = (error as { rows?: ListingUploadRow[] }).rows ?? [];
      setFailure({ message: messageOf(error), rows });
    } finally {
      setSending(false);
    }
  }

  const template = (format: 'csv' | 'xlsx') => () =>
    void downloadListingTemplate(format).catch((error: unknown) =>
      notify({ kind: 'error', message: messageOf(error) }),
    );

  return (
    <ModalDialog
      title={t('upload.title')}
      onClose={onClose}
      closeLabel={t('upload.close')}
      size="large"
      footer={
        <>
          <UploadHistoryLink to="/products/upload-history" />
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('upload.close')}
          </button>
          <button type="submit" form={formId} className="button button-primary" disabled={sending}>
            {sending ? t('upload.sending') : t('upload.send')}
          </button>
        </>
      }
    >
      <form id={formId} className="form" onSubmit={submit} noValidate aria-label={t('upload.form_label')}>
        <p className="muted">{t('upload.intro', { separator: LIST_SEPARATOR })}</p>
        <p className="muted">{t('upload.columns_hint', { columns: LISTING_FILE_COLUMNS.join(', ') })}</p>
        <p className="listing-upload-templates">
          <button type="button" className="button button-secondary" onClick={template('csv')}>
            {t('upload.template_csv')}
          </button>
          <button type="button" className="button button-secondary" onClick={template('xlsx')}>
            {t('upload.template_xlsx')}
          </button>
        </p>
        <SheetFileField
          namespace="listings"
          sheet={sheet}
          onChoose={() => {
            setFailure(null);
            setDone(null);
          }}
        />
        {failure && (
          <FormMessage kind="error">
            <p>{failure.message}</p>
            {failure.rows.length > 0 && <RefusedRows rows={failure.rows} />}
          </FormMessage>
        )}
        {done && (
          <section aria-labelledby={`${formId}-done`}>
            <h3 id={`${formId}-done`}>
              {t('upload.result_title', { count: done.saved, existing: done.existing })}
            </h3>
            <ul>
              {done.listings.map((listing) => (
                <li key={listing.id}>
                  <Link to={`/products/listings/${listing.id}`}>{listing.handle}</Link>{' '}
                  {t('upload.listing_skus', { count: listing.skus })}
                  {listing.created ? '' : ` — ${t('upload.already_there')}`}
                </li>
              ))}
            </ul>
            {done.refused.length > 0 && <RefusedRows rows={done.refused} />}
          </section>
        )}
      </form>
    </ModalDialog>
  );
}

/** Each row refused, with its column, its code and why. */
function RefusedRows({ rows }: { rows: readonly ListingUploadRow[] }) {
  const { t } = useTranslation('listings');
  return (
    <table className="listing-grid-table">
      <caption>{t('upload.errors_caption')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('upload.columns.row')}</th>
          <th scope="col">{t('upload.columns.column')}</th>
          <th scope="col">{t('upload.columns.code')}</th>
          <th scope="col">{t('upload.columns.problem')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one row may have several problems
          <tr key={index}>
            <td>{row.row}</td>
            <td>{row.column ?? ''}</td>
            <td>{row.code}</td>
            <td>{row.message}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
