import { UploadHistory } from '@web/routes/uploads/upload-history';

/** `/products/upload-history` (issue 15): the listings bulk upload files sent, and what became of each. */
export default function ListingUploadHistoryPage() {
  return <UploadHistory kind="listing" />;
}
