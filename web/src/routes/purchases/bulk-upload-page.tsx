import { PURCHASE_COLUMNS, PURCHASES_ENDPOINT } from '@web/api/purchases';
import { UploadHistoryLink } from '@web/routes/uploads/history-link';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { FileUploadForm } from './parts';
import '@web/routes/management.css';

/**
 * Purchases → bulk upload: purchase orders from a CSV (UTF-8, a BOM allowed) or XLSX, one item a row in the fixed
 * column order, rows sharing a reference making one order. Any bad row refuses the whole file, listing every bad
 * row; a good one creates the orders as drafts (the same file again creates nothing twice), listed here to open.
 */

interface Result {
  created: number;
  existing: number;
  purchases: { id: string; po_number: string; reference: string }[];
}

export default function PurchaseBulkUploadPage() {
  const { t } = useTranslation('purchases');
  const [result, setResult] = useState<Result | null>(null);
  return (
    <div className="page management-page purchase-page">
      <PageHeader title={t('upload.title')} intro={t('upload.intro')}>
        <UploadHistoryLink to="/purchases/upload-history" />
      </PageHeader>
      <section className="card">
        <FileUploadForm<Result>
          endpoint={`${PURCHASES_ENDPOINT}/upload`}
          columns={PURCHASE_COLUMNS}
          templateName="purchases-template.csv"
          intro={t('upload.purchase_intro')}
          onDone={(data) => setResult(data)}
        />
      </section>
      {result && (
        <section className="card purchase-section" aria-labelledby="upload-result-title">
          <h2 id="upload-result-title">
            {t('upload.result_title', { created: result.created, existing: result.existing })}
          </h2>
          <ul>
            {result.purchases.map((purchase) => (
              <li key={purchase.id}>
                <Link to={`/purchases/detail/${purchase.id}`}>{purchase.po_number}</Link> —{' '}
                {purchase.reference}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
