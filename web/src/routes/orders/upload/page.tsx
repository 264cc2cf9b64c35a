import type { OrderUploadResult } from '@api/contracts/order-upload';
import { ORDER_FILE_COLUMNS } from '@domain/orders/order-file';
import { FileUploadForm } from '@web/routes/purchases/parts';
import { UploadHistoryLink } from '@web/routes/uploads/history-link';
import { PageHeader } from '@web/shell/page';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';

/**
 * Orders → upload orders (spec §6 `orders-upload`; issue 14): manual orders from a CSV (Excel's "CSV UTF-8" too) or
 * XLSX, one line a row, rows sharing an order number making one order of the named store. Any bad row refuses the
 * whole file, listing every bad row and every reason at once; a good one creates the orders (the same file again
 * creates nothing twice), which then appear on the board.
 */
export default function OrderUploadPage() {
  const { t } = useTranslation('orders');
  const [result, setResult] = useState<OrderUploadResult | null>(null);
  return (
    <div className="page management-page">
      <PageHeader title={t('upload.title')} intro={t('upload.intro')}>
        <UploadHistoryLink to="/orders/upload-history" />
      </PageHeader>
      <section className="card">
        <FileUploadForm<OrderUploadResult>
          namespace="orders"
          endpoint="/api/orders/upload"
          columns={ORDER_FILE_COLUMNS}
          templateName="orders-template.csv"
          intro={t('upload.file_intro')}
          onDone={(data) => setResult(data)}
        />
      </section>
      {result && (
        <section className="card" aria-labelledby="order-upload-result">
          <h2 id="order-upload-result">
            {t('upload.result_title', { created: result.created, existing: result.existing })}
          </h2>
          <ul>
            {result.orders.map((order) => (
              <li key={order.id}>
                {order.order_number}
                {order.created ? '' : ` — ${t('upload.already_there')}`}
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
