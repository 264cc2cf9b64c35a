import {
  downloadListingTemplate,
  LIST_SEPARATOR,
  LISTING_FILE_COLUMNS,
  LISTING_UPLOAD_ENDPOINT,
  type ListingUploadResult,
} from '@web/api/listings';
import { ModalDialog } from '@web/components/modal-dialog';
import { UploadRowErrors } from '@web/components/sheet-upload';
import { FileUploadForm } from '@web/routes/purchases/parts';
import { UploadHistoryLink } from '@web/routes/uploads/history-link';
import { messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { useId, useState } from 'react';
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
  const doneId = useId();
  const [done, setDone] = useState<ListingUploadResult | null>(null);

  const xlsxTemplate = () =>
    void downloadListingTemplate('xlsx').catch((error: unknown) =>
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
        </>
      }
    >
      <FileUploadForm<ListingUploadResult>
        namespace="listings"
        endpoint={LISTING_UPLOAD_ENDPOINT}
        columns={LISTING_FILE_COLUMNS}
        templateName="listings-template.csv"
        intro={t('upload.intro', { separator: LIST_SEPARATOR })}
        onDone={setDone}
      />
      <p>
        <button type="button" className="button button-secondary" onClick={xlsxTemplate}>
          {t('upload.template_xlsx')}
        </button>
      </p>
      {done && (
        <section aria-labelledby={doneId}>
          <h3 id={doneId}>{t('upload.result_title', { count: done.saved, existing: done.existing })}</h3>
          <ul>
            {done.listings.map((listing) => (
              <li key={listing.id}>
                <Link to={`/products/listings/${listing.id}`}>{listing.handle}</Link>{' '}
                {t('upload.listing_skus', { count: listing.skus })}
                {listing.created ? '' : ` — ${t('upload.already_there')}`}
              </li>
            ))}
          </ul>
          {done.refused.length > 0 && (
            <UploadRowErrors
              namespace="listings"
              rows={done.refused}
              caption={t('upload.errors_caption')}
              className="purchase-table"
            />
          )}
        </section>
      )}
    </ModalDialog>
  );
}
