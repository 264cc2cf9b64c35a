import { UploadHistory } from '@web/routes/uploads/upload-history';

/** `/inventory/stock-adjustment/upload-history`: the bulk stock adjustment files sent, and what became of each. */
export default function StockUploadHistoryPage() {
  return <UploadHistory kind="stock_adjustment" />;
}
