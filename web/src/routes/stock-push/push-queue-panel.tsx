import { usePushQueue } from '@web/api/stock-push';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Above the sync quantity log, for the store chosen: what its push has still to tell the channel, asked of the
 * store's push workflow — how many figures wait, and each SKU the channel refused for now with the try it waits
 * for. The log below holds what was answered.
 */
export function PushQueuePanel({ storeId }: { storeId: string }) {
  const { t } = useTranslation('push');
  const queue = usePushQueue(storeId);
  const titleId = useId();
  if (!queue.data) return null;
  const { waiting, retrying } = queue.data;
  return (
    <section className="card" aria-labelledby={titleId}>
      <h2 id={titleId}>{t('queue.title')}</h2>
      <p>{t('queue.waiting', { count: waiting })}</p>
      {retrying.length > 0 && (
        <ul aria-label={t('queue.retrying_label')}>
          {retrying.map((sku) => (
            <li key={`${sku.item_id}/${sku.model_id}`}>
              {t('queue.retrying', { sku: sku.seller_sku, quantity: sku.quantity, attempt: sku.attempt })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
