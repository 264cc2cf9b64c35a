import { UploadHistory } from '@web/routes/uploads/upload-history';

/** `/orders/upload-history` (issue 14): the bulk order files sent, and what became of each. */
export default function OrderUploadHistoryPage() {
  return <UploadHistory kind="order" />;
}
