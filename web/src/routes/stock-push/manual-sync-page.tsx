import { useSyncNow, useSyncStatus } from '@web/api/stock-push';
import { FormMessage, messageOf } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import '@web/routes/management.css';

/**
 * Inventory → Manual sync status (spec route /inventory/manual-sync-status): each store's stock push at a glance —
 * its linked SKUs, the last push, the pushes and failures of the last day, the retries waiting — and "Sync now",
 * which pushes every linked SKU of the store from the stock as it stands (even a quantity the store already shows).
 */
export default function ManualSyncPage() {
  const { t } = useTranslation('push');
  const notify = useNotify();
  const status = useSyncStatus();
  const sync = useSyncNow();
  const when = useDateTime();

  async function syncNow(storeId: string) {
    try {
      notify({ kind: 'success', message: (await sync.mutateAsync({ store_id: storeId })).msg });
    } catch (failure) {
      notify({ kind: 'error', message: messageOf(failure) });
    }
  }

  return (
    <div className="page management-page">
      <PageHeader title={t('sync.title')} intro={t('sync.intro')}>
        <Link className="button" to="/logistic/sync-qty-log">
          {t('nav.log')}
        </Link>
      </PageHeader>
      {status.isError && <FormMessage kind="error">{messageOf(status.error)}</FormMessage>}
      {status.data && status.data.stores.length === 0 && <p className="muted">{t('sync.no_stores')}</p>}
      {status.data && status.data.stores.length > 0 && (
        <table className="simple-table">
          <thead>
            <tr>
              <th scope="col">{t('sync.columns.store')}</th>
              <th scope="col">{t('sync.columns.linked')}</th>
              <th scope="col">{t('sync.columns.last_push')}</th>
              <th scope="col">{t('sync.columns.pushed_today')}</th>
              <th scope="col">{t('sync.columns.failed_today')}</th>
              <th scope="col">{t('sync.columns.waiting')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('sync.columns.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {status.data.stores.map((store) => (
              <tr key={store.store_id}>
                <th scope="row">{store.name}</th>
                <td>{store.linked_skus}</td>
                <td>{store.last_push_at ? when(store.last_push_at) : t('sync.never')}</td>
                <td>{store.pushed_today}</td>
                <td>{store.failed_today}</td>
                <td>{store.waiting}</td>
                <td>
                  <button
                    type="button"
                    className="button"
                    disabled={sync.isPending || store.status === 'disconnected' || store.linked_skus === 0}
                    onClick={() => syncNow(store.store_id)}
                  >
                    {t('sync.now', { store: store.name })}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
