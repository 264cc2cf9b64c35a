import type { RequestStatus, TransferStatus } from '@web/api/transfers';
import { useTranslation } from 'react-i18next';

const TONE: Record<RequestStatus | TransferStatus, string> = {
  pending: 'badge-warning',
  approved: 'badge-new',
  rejected: 'badge-danger',
  cancelled: 'badge-muted',
  in_transit: '',
  completed: 'badge-new',
};

/** A request's or transfer's status (spec §4) as a coloured label. */
export function StatusBadge({ status }: { status: RequestStatus | TransferStatus }) {
  const { t } = useTranslation('transfers');
  return (
    <span className={`badge ${TONE[status]}`} data-status={status}>
      {t(`status.${status}`)}
    </span>
  );
}
