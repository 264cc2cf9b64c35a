import {
  INTERVAL,
  type Store,
  useConnectStore,
  useDisconnectStore,
  useImportNow,
  useStores,
  useUpdateInterval,
} from '@web/api/stores';
import { ConfirmDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { Spinner } from '@web/shell/spinner';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import '@web/routes/management.css';
import './stores.css';
import { dateTimeFormatter } from '@web/shell/format';

/**
 * Settings → store integration (spec §2 /settings/store-integration): the account's marketplace stores, each with
 * its status, last import, the error that stopped it (kept on the store until an import succeeds), the order check
 * interval (editable), "Import now" and disconnect; and the button that connects a Shopee store.
 */
export default function StoreIntegrationPage() {
  const { t } = useTranslation('stores');
  const stores = useStores();
  const connect = useConnectStore();
  const list = stores.data ?? [];

  return (
    <div className="page management-page stores-page">
      <PageHeader title={t('title')} intro={t('intro')}>
        <button
          type="button"
          className="button button-primary"
          disabled={connect.isPending}
          onClick={() => connect.mutate('shopee')}
        >
          {connect.isPending ? t('connect.opening') : t('connect.shopee')}
        </button>
      </PageHeader>
      {connect.error && <FormMessage kind="error">{messageOf(connect.error)}</FormMessage>}
      {stores.error && <FormMessage kind="error">{messageOf(stores.error)}</FormMessage>}
      {stores.isPending ? (
        <Spinner label={t('loading')} />
      ) : list.length === 0 ? (
        <div className="card empty-state">
          <p className="muted">{t('empty')}</p>
        </div>
      ) : (
        <ul className="store-list" aria-label={t('list_label')}>
          {list.map((store) => (
            <li key={store.id}>
              <StoreCard store={store} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const TONE: Record<Store['status'], string> = {
  connected: 'badge-new',
  error: 'badge-danger',
  disconnected: 'badge-muted',
};

function When({ at }: { at: string | null }) {
  const { t, i18n } = useTranslation('stores');
  if (!at) return <>{t('never')}</>;
  return <time dateTime={at}>{dateTimeFormatter(i18n.language)(at)}</time>;
}

function StoreCard({ store }: { store: Store }) {
  const { t } = useTranslation('stores');
  const notify = useNotify();
  const importNow = useImportNow();
  const disconnect = useDisconnectStore();
  const connect = useConnectStore();
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const importing = store.schedule?.importing ?? false;
  const disconnected = store.status === 'disconnected';

  return (
    <article className="card store-card" aria-labelledby={titleId} data-status={store.status}>
      <header className="store-card-header">
        <div>
          <h2 id={titleId}>{store.name}</h2>
          <p className="muted">
            {t('shop_line', {
              platform: t(`platform.${store.platform}`),
              shop: store.shop_id,
              region: store.region,
            })}
          </p>
        </div>
        <span className={`badge ${TONE[store.status]}`} data-status={store.status}>
          {t(`status.${store.status}`)}
        </span>
      </header>

      <dl className="facts store-facts">
        <div>
          <dt>{t('last_import')}</dt>
          <dd>
            <When at={store.last_import_at} />
            {store.last_import_orders !== null && store.last_import_at && (
              <span className="muted"> · {t('orders_read', { count: store.last_import_orders })}</span>
            )}
            {importing && <span className="badge store-importing">{t('importing')}</span>}
          </dd>
        </div>
        <div>
          <dt>{t('next_import')}</dt>
          <dd>
            {disconnected ? (
              t('paused')
            ) : store.schedule?.next_import_at ? (
              <When at={store.schedule.next_import_at} />
            ) : (
              t('unknown')
            )}
          </dd>
        </div>
        <div>
          <dt>{t('warehouse')}</dt>
          <dd>
            {store.warehouse ? `${store.warehouse.code} · ${store.warehouse.name}` : t('default_warehouse')}
          </dd>
        </div>
      </dl>

      {store.last_error && (
        <div className="store-error" role="alert">
          <strong>{t(`error.${store.last_error.kind}`, { defaultValue: t('error.internal') })}</strong>
          <span className="muted">
            {' '}
            (<When at={store.last_error.at} />)
          </span>
          <pre className="store-error-detail">{store.last_error.message}</pre>
        </div>
      )}

      <IntervalForm store={store} />

      <div className="form-actions store-actions">
        {disconnected || store.last_error?.kind === 'authorization' ? (
          <button
            type="button"
            className="button button-primary"
            disabled={connect.isPending}
            onClick={() => connect.mutate(store.platform)}
          >
            {t('reconnect')}
          </button>
        ) : null}
        {!disconnected && (
          <button
            type="button"
            className="button button-secondary"
            disabled={importing || importNow.isPending}
            onClick={() =>
              importNow.mutate(store.id, {
                onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
                onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
              })
            }
          >
            {importing || importNow.isPending ? t('importing') : t('import_now')}
          </button>
        )}
        {!disconnected && (
          <button type="button" className="button button-danger-outline" onClick={() => setConfirming(true)}>
            {t('disconnect')}
          </button>
        )}
      </div>

      {confirming && (
        <ConfirmDialog
          title={t('disconnect_title', { name: store.name })}
          message={t('disconnect_message')}
          confirmLabel={t('disconnect')}
          cancelLabel={t('cancel')}
          busy={disconnect.isPending}
          onCancel={() => setConfirming(false)}
          onConfirm={() =>
            disconnect.mutate(store.id, {
              onSuccess: (answer) => {
                setConfirming(false);
                notify({ kind: 'success', message: answer.msg });
              },
              onError: (error) => {
                setConfirming(false);
                notify({ kind: 'error', message: messageOf(error) });
              },
            })
          }
        />
      )}
    </article>
  );
}

function IntervalForm({ store }: { store: Store }) {
  const { t } = useTranslation('stores');
  const notify = useNotify();
  const update = useUpdateInterval();
  const [value, setValue] = useState(String(store.import_interval_minutes));
  const [error, setError] = useState<string | undefined>();
  const id = useId();
  const changed = value.trim() !== String(store.import_interval_minutes);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minutes = Number(value);
    if (!/^\d+$/.test(value.trim()) || minutes < INTERVAL.min || minutes > INTERVAL.max) {
      setError(t('interval_invalid', INTERVAL));
      return;
    }
    setError(undefined);
    update.mutate(
      { id: store.id, minutes },
      {
        onSuccess: (answer) => notify({ kind: 'success', message: answer.msg }),
        onError: (failure) => setError(messageOf(failure)),
      },
    );
  };

  return (
    <form className="store-interval" onSubmit={submit} noValidate>
      <label htmlFor={id} className="field-label">
        {t('interval')}
      </label>
      <div className="store-interval-row">
        <input
          id={id}
          className="input"
          type="number"
          inputMode="numeric"
          min={INTERVAL.min}
          max={INTERVAL.max}
          step={1}
          value={value}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
          onChange={(event) => setValue(event.target.value)}
        />
        <span className="muted">{t('minutes')}</span>
        <button type="submit" className="button button-secondary" disabled={!changed || update.isPending}>
          {t('save_interval')}
        </button>
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {t('interval_hint', INTERVAL)}
      </p>
      {error && (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      )}
    </form>
  );
}
