import { UploadHistory } from '@web/routes/uploads/upload-history';

/** `/purchases/upload-history` (domains.md §2 Purchases): the bulk purchase files sent, and what became of each. */
export default function PurchaseUploadHistoryPage() {
  return <UploadHistory kind="purchase" />;
}
