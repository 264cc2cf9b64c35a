import type { BatchDetail } from '@api/contracts/batches';
import {
  BATCHES_VIEW,
  downloadPickList,
  ORDER_COUNTS_VIEW,
  PICK_LIST_FILTERS,
  type PickListFilter,
  useBatch,
  useBatchAction,
  usePickers,
  usePickList,
} from '@web/api/batches';
import { useLiveRecord, useLiveRefresh } from '@web/api/live';
import { ConfirmDialog, ModalDialog } from '@web/components/modal-dialog';
import { FormMessage, messageOf, SelectField } from '@web/shell/form';
import { useDate } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WaitingOrdersTable } from './waiting-orders';

/**
 * One batch: what it is (number, type, date, split group, progress), its picker, its orders with each one's scan
 * check, and its pick list in the five item filters of spec §9, printed as a PDF. While it is open, orders can be
 * added or taken out and the batch closed. It follows the live view `batches`.
 */
export function BatchDetailDialog({ id, onClose }: { id: string; onClose(): void }) {
  const { t } = useTranslation('batches');
  const batch = useBatch(id);
  useLiveRecord(BATCHES_VIEW, id, batch.refetch);
  useLiveRefresh(ORDER_COUNTS_VIEW, batch.refetch);
  const title = batch.data ? t('detail.title', { label: batch.data.label }) : t('detail.loading');
  return (
    <ModalDialog title={title} onClose={onClose} closeLabel={t('actions.close_dialog')} size="large">
      {batch.error && <FormMessage kind="error">{messageOf(batch.error)}</FormMessage>}
      {batch.data && <BatchBody batch={batch.data} />}
    </ModalDialog>
  );
}

function BatchBody({ batch }: { batch: BatchDetail }) {
  const { t } = useTranslation('batches');
  const day = useDate();
  const notify = useNotify();
  const action = useBatchAction();
  const pickers = usePickers();
  const [adding, setAdding] = useState(false);
  const [closing, setClosing] = useState(false);
  const open = batch.status === 'open';

  const run = (input: Parameters<typeof action.mutate>[0], after?: () => void) =>
    action.mutate(input, {
      onSuccess: (answer) => {
        notify({ kind: 'success', message: answer.msg });
        after?.();
      },
      onError: (error) => notify({ kind: 'error', message: messageOf(error) }),
    });

  return (
    <div className="batch-detail">
      <dl className="batch-facts">
        <div>
          <dt>{t('columns.name')}</dt>
          <dd>{batch.name}</dd>
        </div>
        <div>
          <dt>{t('columns.type')}</dt>
          <dd>{t(`type.${batch.type}`)}</dd>
        </div>
        <div>
          <dt>{t('columns.status')}</dt>
          <dd>{t(`status.${batch.status}`)}</dd>
        </div>
        <div>
          <dt>{t('columns.date')}</dt>
          <dd>{day(batch.date)}</dd>
        </div>
        <div>
          <dt>{t('fields.split')}</dt>
          <dd>
            {t(`split.${batch.split}`)}
            {batch.group !== null ? ` · ${batch.group || t('detail.no_group')}` : ''}
          </dd>
        </div>
        <div>
          <dt>{t('columns.progress')}</dt>
          <dd>{t('columns.progress_value', { scanned: batch.scanned_orders, count: batch.total_orders })}</dd>
        </div>
      </dl>

      <div className="toolbar">
        <div className="batch-picker">
          <SelectField
            label={t('fields.picker')}
            value={batch.picker?.id ?? ''}
            placeholder={t('fields.no_picker')}
            disabled={!open || action.isPending}
            options={(pickers.data ?? []).map((picker) => ({ value: picker.id, label: picker.name }))}
            onChange={(event) =>
              run({ id: batch.id, action: 'picker', pickerId: event.target.value || null })
            }
          />
        </div>
        {open && (
          <>
            <button type="button" className="button" onClick={() => setAdding(true)}>
              {t('detail.add_orders')}
            </button>
            <button type="button" className="button button-danger-outline" onClick={() => setClosing(true)}>
              {t('detail.close_batch')}
            </button>
          </>
        )}
      </div>

      <h3 className="batch-section-title">{t('detail.orders', { number: batch.orders.length })}</h3>
      <div className="batch-table-wrap">
        <table className="batch-table" aria-label={t('detail.orders_label')}>
          <thead>
            <tr>
              <th>{t('columns.order_number')}</th>
              <th>{t('columns.tracking')}</th>
              <th>{t('columns.status')}</th>
              <th>{t('columns.check')}</th>
              {open && <th>{t('columns.actions')}</th>}
            </tr>
          </thead>
          <tbody>
            {batch.orders.map((order) => (
              <tr key={order.id}>
                <td>{order.order_number ?? order.id}</td>
                <td>{order.tracking_number ?? ''}</td>
                <td>{order.status ? t(`order_status.${order.status}`) : ''}</td>
                <td>
                  {order.check
                    ? t(`check.${order.check.status}`, {
                        scanned: order.check.scanned_units,
                        required: order.check.required_units,
                        picker: order.check.picker?.name ?? '',
                      })
                    : ''}
                </td>
                {open && (
                  <td>
                    <button
                      type="button"
                      className="button button-small"
                      aria-label={t('detail.remove_named', { order: order.order_number ?? order.id })}
                      disabled={action.isPending}
                      onClick={() => run({ id: batch.id, action: 'remove', orderIds: [order.id] })}
                    >
                      {t('detail.remove')}
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      <PickListSection batch={batch} />

      {adding && (
        <AddOrdersDialog
          batch={batch}
          busy={action.isPending}
          onClose={() => setAdding(false)}
          onAdd={(orderIds) => run({ id: batch.id, action: 'add', orderIds }, () => setAdding(false))}
        />
      )}
      {closing && (
        <ConfirmDialog
          title={t('detail.close_title', { label: batch.label })}
          message={t('detail.close_message')}
          confirmLabel={t('detail.close_batch')}
          cancelLabel={t('actions.cancel')}
          busy={action.isPending}
          onCancel={() => setClosing(false)}
          onConfirm={() => run({ id: batch.id, action: 'close' }, () => setClosing(false))}
        />
      )}
    </div>
  );
}

function PickListSection({ batch }: { batch: BatchDetail }) {
  const { t } = useTranslation('batches');
  const notify = useNotify();
  const [filter, setFilter] = useState<PickListFilter>('item');
  const list = usePickList(batch.id, filter);
  const perOrder = filter === 'all';
  return (
    <section aria-label={t('pick.title')}>
      <div className="batch-pick-header">
        <h3 className="batch-section-title">{t('pick.title')}</h3>
        <div className="toolbar">
          <SelectField
            label={t('pick.filter')}
            value={filter}
            onChange={(event) => setFilter(event.target.value as PickListFilter)}
            options={PICK_LIST_FILTERS.map((value) => ({ value, label: t(`pick.filters.${value}`) }))}
          />
          <button
            type="button"
            className="button button-primary"
            onClick={() =>
              downloadPickList(batch, filter).catch((error: unknown) =>
                notify({ kind: 'error', message: messageOf(error) }),
              )
            }
          >
            {t('pick.print')}
          </button>
        </div>
      </div>
      {list.data && (
        <>
          <p className="muted">
            {t('pick.totals', {
              orders: t('common:count.orders', { count: list.data.order_count }),
              quantity: t('common:count.units', { count: list.data.total_quantity }),
            })}
          </p>
          <div className="batch-table-wrap">
            <table className="batch-table" aria-label={t('pick.table_label')}>
              <thead>
                <tr>
                  <th>{t('pick.location')}</th>
                  <th>{t('pick.code')}</th>
                  <th>{t('pick.sku')}</th>
                  <th>{t('pick.name')}</th>
                  <th className="numeric">{t('pick.quantity')}</th>
                  <th>{perOrder ? t('pick.order') : t('pick.orders')}</th>
                </tr>
              </thead>
              <tbody>
                {list.data.rows.map((row) => (
                  <tr key={row.key}>
                    <td>{row.locations.join(', ')}</td>
                    <td>{row.code ?? ''}</td>
                    <td>{row.seller_sku}</td>
                    <td>
                      {row.name}
                      {row.gift && <span className="badge">{t('pick.gift')}</span>}
                      {row.bin_numbers.length > 0 && (
                        <div className="muted">
                          {t('pick.bins')}: {row.bin_numbers.join(', ')}
                        </div>
                      )}
                      {row.serial_numbers.length > 0 && (
                        <div className="muted">
                          {t('pick.serials')}: {row.serial_numbers.join(', ')}
                        </div>
                      )}
                    </td>
                    <td className="numeric">{row.quantity}</td>
                    <td>{perOrder ? (row.order_number ?? '') : row.order_count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function AddOrdersDialog({
  batch,
  busy,
  onClose,
  onAdd,
}: {
  batch: BatchDetail;
  busy: boolean;
  onClose(): void;
  onAdd(orderIds: string[]): void;
}) {
  const { t } = useTranslation('batches');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  return (
    <ModalDialog
      title={t('detail.add_title', { label: batch.label })}
      onClose={onClose}
      closeLabel={t('actions.close_dialog')}
      size="large"
      footer={
        <>
          <button type="button" className="button button-secondary" onClick={onClose}>
            {t('actions.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            disabled={busy || selected.size === 0}
            onClick={() => onAdd([...selected])}
          >
            {t('detail.add_selected', { count: selected.size })}
          </button>
        </>
      }
    >
      <WaitingOrdersTable type={batch.type} selected={selected} onChange={setSelected} />
    </ModalDialog>
  );
}
