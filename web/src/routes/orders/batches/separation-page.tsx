import type { BatchDetail } from '@api/contracts/batches';
import {
  BATCHES_VIEW,
  SEPARATION_BYS,
  type SeparationBy,
  separationKey,
  useBatch,
  useOpenBatches,
  useSeparateBatch,
} from '@web/api/batches';
import { useLiveRefresh } from '@web/api/live';
import { useOrderStores } from '@web/api/orders';
import { FormMessage, messageOf, SelectField } from '@web/shell/form';
import { useNotify } from '@web/shell/notifications';
import { PageHeader } from '@web/shell/page';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import './batches.css';

/**
 * Orders → Batch separation (/orders/batch-separation; domain/batches/separation.ts): an open batch split into
 * batches of orders packed alike — by store, carrier, payment method, single or multiple items, or the orders ticked.
 * The screen shows the groups the batch would make before anything moves: the largest stays, each other becomes a
 * new batch with the same settings, and its pick list follows. Scanned orders stay. Needs "batch" (orders-batch).
 */

const MOVABLE = ['new', 'unscan'];

export default function BatchSeparationPage() {
  const { t } = useTranslation('batches');
  const batches = useOpenBatches();
  const [batchId, setBatchId] = useState('');
  const batch = useBatch(batchId);
  useLiveRefresh(BATCHES_VIEW, () => {
    void batches.refetch();
    if (batchId) void batch.refetch();
  });
  const [made, setMade] = useState<BatchDetail[] | null>(null);
  const open = batches.data?.rows ?? [];
  return (
    <div className="page batches-page">
      <PageHeader title={t('separation.title')} intro={t('separation.intro')} />
      {batches.error && <FormMessage kind="error">{messageOf(batches.error)}</FormMessage>}
      <div className="toolbar">
        <SelectField
          label={t('separation.batch')}
          value={batchId}
          placeholder={open.length ? t('separation.choose_batch') : t('separation.no_open')}
          options={open.map((row) => ({
            value: row.id,
            label: t('separation.batch_option', {
              label: row.label,
              name: row.name,
              count: row.total_orders,
            }),
          }))}
          onChange={(event) => {
            setBatchId(event.target.value);
            setMade(null);
          }}
        />
      </div>
      {made && <SeparationResult batches={made} />}
      {batchId && batch.error && <FormMessage kind="error">{messageOf(batch.error)}</FormMessage>}
      {batchId && batch.data && (
        <SeparationForm key={batch.data.id} batch={batch.data} onSeparated={setMade} />
      )}
    </div>
  );
}

function SeparationForm({
  batch,
  onSeparated,
}: {
  batch: BatchDetail;
  onSeparated(batches: BatchDetail[]): void;
}) {
  const { t } = useTranslation('batches');
  const notify = useNotify();
  const stores = useOrderStores();
  const separate = useSeparateBatch();
  const [by, setBy] = useState<SeparationBy>('logistics');
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [error, setError] = useState<unknown>(null);

  const movable = batch.orders.filter((order) => MOVABLE.includes(order.status ?? ''));
  const storeName = useMemo(
    () => new Map((stores.data ?? []).map((store) => [store.store_id, store.name ?? store.store_id])),
    [stores.data],
  );
  const groupLabel = (key: string) => {
    if (by === 'items') return t(`separation.${key}`);
    if (by === 'store') return storeName.get(key) ?? key;
    if (by === 'logistics') return key || t('separation.no_carrier');
    return key || t('separation.no_payment');
  };
  // The same grouping as the server's (domain/batches/separation.ts), over the board's view of the orders.
  const groups = useMemo(() => {
    const byKey = new Map<string, string[]>();
    for (const order of movable) {
      const key = separationKey(
        {
          orderId: order.id,
          storeId: order.store_id ?? '',
          shippingProvider: order.shipping_provider,
          paymentMethod: order.payment_method,
          lineCount: order.line_count,
        },
        by,
      );
      byKey.set(key, [...(byKey.get(key) ?? []), order.id]);
    }
    const list = [...byKey.entries()]
      .map(([key, ids]) => ({ key, ids }))
      .sort((a, b) => a.key.localeCompare(b.key));
    const staying = list.reduce<(typeof list)[number] | null>(
      (largest, group) => (!largest || group.ids.length > largest.ids.length ? group : largest),
      null,
    );
    return list.map((group) => ({ ...group, stays: group === staying }));
  }, [movable, by]);

  const canSeparate =
    batch.status === 'open' &&
    (by === 'orders' ? chosen.size > 0 && chosen.size < batch.orders.length : groups.length > 1);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    try {
      const answer = await separate.mutateAsync({
        id: batch.id,
        body: by === 'orders' ? { by, order_ids: [...chosen] } : { by },
      });
      notify({ kind: 'success', message: answer.msg });
      setChosen(new Set());
      onSeparated(answer.data.batches);
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label={t('separation.form_label', { label: batch.label })}>
      {error !== null && <FormMessage kind="error">{messageOf(error)}</FormMessage>}
      <fieldset className="form-section">
        <legend>{t('separation.by')}</legend>
        <div className="toolbar" role="radiogroup">
          {SEPARATION_BYS.map((value) => (
            <label key={value} className="field-checkbox">
              <input
                type="radio"
                name="separation-by"
                value={value}
                checked={by === value}
                onChange={() => setBy(value)}
              />
              {t(`separation.by_options.${value}`)}
            </label>
          ))}
        </div>
      </fieldset>

      {by === 'orders' ? (
        <>
          <p className="muted">{t('separation.choose_orders')}</p>
          <div className="batch-table-wrap">
            <table className="batch-table" aria-label={t('detail.orders_label')}>
              <thead>
                <tr>
                  <th>
                    <span className="visually-hidden">{t('separation.move')}</span>
                  </th>
                  <th>{t('columns.order_number')}</th>
                  <th>{t('columns.tracking')}</th>
                  <th>{t('columns.courier')}</th>
                  <th>{t('columns.status')}</th>
                </tr>
              </thead>
              <tbody>
                {batch.orders.map((order) => {
                  const number = order.order_number ?? order.id;
                  return (
                    <tr key={order.id}>
                      <td>
                        <input
                          type="checkbox"
                          aria-label={t('separation.move_named', { order: number })}
                          disabled={!MOVABLE.includes(order.status ?? '')}
                          checked={chosen.has(order.id)}
                          onChange={(event) => {
                            const next = new Set(chosen);
                            if (event.target.checked) next.add(order.id);
                            else next.delete(order.id);
                            setChosen(next);
                          }}
                        />
                      </td>
                      <td>{number}</td>
                      <td>{order.tracking_number ?? ''}</td>
                      <td>{order.shipping_provider ?? ''}</td>
                      <td>{order.status ? t(`order_status.${order.status}`) : ''}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <div className="batch-table-wrap">
          <table className="batch-table" aria-label={t('separation.groups')}>
            <thead>
              <tr>
                <th>{t('separation.group')}</th>
                <th>{t('separation.orders')}</th>
                <th>{t('separation.outcome')}</th>
              </tr>
            </thead>
            <tbody>
              {groups.map((group) => (
                <tr key={group.key}>
                  <td>{groupLabel(group.key)}</td>
                  <td>{t('separation.orders_count', { count: group.ids.length })}</td>
                  <td>
                    {group.stays ? t('separation.stays', { label: batch.label }) : t('separation.moves')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {by !== 'orders' && groups.length < 2 && <p className="muted">{t('separation.nothing')}</p>}
      {movable.length < batch.orders.length && (
        <p className="muted">
          {t('separation.scanned_stay', { count: batch.orders.length - movable.length })}
        </p>
      )}
      <div className="toolbar">
        <button type="submit" className="button button-primary" disabled={!canSeparate || separate.isPending}>
          {t('separation.submit')}
        </button>
      </div>
    </form>
  );
}

function SeparationResult({ batches }: { batches: readonly BatchDetail[] }) {
  const { t } = useTranslation('batches');
  return (
    <section aria-label={t('separation.result')}>
      <h3 className="batch-section-title">{t('separation.result')}</h3>
      <ul>
        {batches.map((batch) => (
          <li key={batch.id}>
            {t('separation.result_line', { label: batch.label, name: batch.name, count: batch.total_orders })}
          </li>
        ))}
      </ul>
    </section>
  );
}
