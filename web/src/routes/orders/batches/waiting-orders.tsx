import type { BatchType } from '@domain/batches/batch';
import { useWaitingOrders } from '@web/api/batches';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The orders waiting for a batch of `type` (new or unscan, in no batch; pre-orders for a pre-order batch), oldest
 * first, each with a box to tick, and one to tick them all; a search by order or tracking number narrows them.
 */
export function WaitingOrdersTable({
  type,
  selected,
  onChange,
}: {
  type: BatchType;
  selected: ReadonlySet<string>;
  onChange(selected: Set<string>): void;
}) {
  const { t } = useTranslation('batches');
  const [search, setSearch] = useState('');
  const waiting = useWaitingOrders(type, search);
  const rows = waiting.data?.rows ?? [];
  const allTicked = rows.length > 0 && rows.every((row) => selected.has(row.id));

  function toggle(id: string) {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onChange(next);
  }

  return (
    <>
      <div className="toolbar batch-waiting-toolbar">
        <input
          type="search"
          className="input toolbar-search"
          aria-label={t('create.search_label')}
          placeholder={t('create.search_placeholder')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <span className="muted">{t('create.waiting', { count: waiting.data?.lastRow ?? 0 })}</span>
      </div>
      <div className="batch-table-wrap">
        <table className="batch-table" aria-label={t('create.orders_label')}>
          <thead>
            <tr>
              <th>
                <input
                  type="checkbox"
                  aria-label={t('create.select_all')}
                  checked={allTicked}
                  onChange={() => onChange(allTicked ? new Set() : new Set(rows.map((row) => row.id)))}
                />
              </th>
              <th>{t('columns.order_number')}</th>
              <th>{t('columns.tracking')}</th>
              <th>{t('columns.status')}</th>
              <th>{t('columns.courier')}</th>
              <th>{t('columns.payment')}</th>
              <th>{t('columns.items')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                <td>
                  <input
                    type="checkbox"
                    aria-label={t('create.select_order', { order: row.order_number })}
                    checked={selected.has(row.id)}
                    onChange={() => toggle(row.id)}
                  />
                </td>
                <td>{row.order_number}</td>
                <td>{row.tracking_number ?? ''}</td>
                <td>{t(`order_status.${row.status}`)}</td>
                <td>{row.shipping_provider ?? ''}</td>
                <td>{row.payment_method}</td>
                <td>{row.item_count}</td>
              </tr>
            ))}
            {rows.length === 0 && (
              <tr>
                <td colSpan={7} className="muted">
                  {waiting.isLoading ? t('create.loading') : t('create.none_waiting')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
