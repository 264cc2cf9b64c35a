import { PageHeader } from '@web/shell/page';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { CreateBatchDialog } from './create-dialog';
import './batches.css';

/**
 * /orders/new-batch (spec shell.md; issue 14): making a batch as a page of its own — the orders waiting for a batch
 * and the batch's settings, as the batch list's "Create batch" shows them; made or cancelled, back to the list.
 */
export default function NewBatchPage() {
  const { t } = useTranslation('batches');
  const navigate = useNavigate();
  const toList = () => navigate('/orders/batch');
  return (
    <div className="page batches-page">
      <PageHeader title={t('create.title')} />
      <CreateBatchDialog layout="page" onClose={toList} onCreated={toList} />
    </div>
  );
}
