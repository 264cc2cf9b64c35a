import { withQuery } from '@web/api/client';
import { PUSH_FIELDS, PUSH_LOG_ENDPOINT, PUSH_LOG_VIEW, type PushLogRow } from '@web/api/stock-push';
import { GridScreen } from '@web/components/grid-screen';
import { CheckboxField } from '@web/shell/form';
import { useDateTime } from '@web/shell/format';
import type { ColDef } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PushQueuePanel } from './push-queue-panel';
import { StoreFilter } from './store-filter';

/**
 * Logistic → Sync quantity log (spec route /logistic/sync-qty-log): every quantity and price Kedai told a
 * marketplace, newest first — the store, the SKU and its master code, the quantity or price, why (the stock change
 * and its reason, a manual sync, the reconciliation, or the store's price rule), which try, and the channel's answer.
 * It answers "what did we tell Shopee for SKU X at 10:02, and why?": filter by store, stock or prices, SKU (the
 * search box), time range, failures only, or the retries still waiting. New pushes appear as they are made. With a
 * store chosen, what its push has still to tell the channel shows above the log.
 */

function useColumns(): ColDef<PushLogRow>[] {
  const { t } = useTranslation('push');
  const when = useDateTime({ seconds: true });
  return useMemo(
    () => [
      {
        colId: 'pushed_at',
        headerName: t('log.columns.pushed_at'),
        valueGetter: ({ data }) => when(data?.pushed_at),
        sortable: true,
        minWidth: 170,
      },
      {
        colId: 'store',
        headerName: t('log.columns.store'),
        valueGetter: ({ data }) => data?.store_name ?? data?.store_id ?? '',
        minWidth: 140,
      },
      {
        colId: 'seller_sku',
        headerName: t('log.columns.seller_sku'),
        valueGetter: ({ data }) => data?.seller_sku ?? '',
        sortable: true,
        minWidth: 140,
      },
      {
        colId: 'field',
        headerName: t('log.columns.field'),
        valueGetter: ({ data }) => (data ? t(`fields.${data.field}`) : ''),
        width: 100,
      },
      {
        colId: 'quantity',
        headerName: t('log.columns.quantity'),
        valueGetter: ({ data }) => data?.quantity ?? '',
        sortable: true,
        width: 110,
      },
      {
        colId: 'price',
        headerName: t('log.columns.price'),
        valueGetter: ({ data }) => data?.price ?? '',
        sortable: true,
        width: 110,
      },
      {
        colId: 'outcome',
        headerName: t('log.columns.outcome'),
        valueGetter: ({ data }) => (data ? t(`outcomes.${data.outcome}`) : ''),
        minWidth: 130,
      },
      {
        colId: 'why',
        headerName: t('log.columns.why'),
        valueGetter: ({ data }) => {
          if (!data) return '';
          const cause =
            data.origin === 'change' && data.trigger_type
              ? t(`triggers.${data.trigger_type}`, { defaultValue: data.trigger_type })
              : t(`origins.${data.origin}`);
          return data.reason ? `${cause}: ${data.reason}` : cause;
        },
        flex: 1,
        minWidth: 220,
      },
      {
        colId: 'answer',
        headerName: t('log.columns.answer'),
        valueGetter: ({ data }) => data?.answer ?? '',
        minWidth: 200,
      },
      {
        colId: 'attempt',
        headerName: t('log.columns.attempt'),
        valueGetter: ({ data }) => data?.attempt ?? '',
        sortable: true,
        minWidth: 80,
      },
      {
        colId: 'master_code',
        headerName: t('log.columns.master_code'),
        valueGetter: ({ data }) => data?.master_code ?? '',
        minWidth: 120,
      },
    ],
    [t, when],
  );
}

/** A datetime-local value (the browser's zone) as the instant the API takes. */
const instantOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

export default function SyncLogPage() {
  const { t } = useTranslation('push');
  const fromId = useId();
  const toId = useId();
  const fieldId = useId();
  const [store, setStore] = useState('');
  const [field, setField] = useState<PushLogRow['field'] | ''>('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [failedOnly, setFailedOnly] = useState(false);
  const [waitingOnly, setWaitingOnly] = useState(false);
  const endpoint = withQuery(PUSH_LOG_ENDPOINT, {
    store_id: store || undefined,
    field: field || undefined,
    from: instantOf(from),
    to: instantOf(to),
    failed_only: failedOnly,
    waiting_only: waitingOnly,
  });
  return (
    <GridScreen<PushLogRow>
      namespace="push"
      prefix="log"
      gridId="logistic.sync-qty-log"
      endpoint={endpoint}
      useColumns={useColumns}
      live={PUSH_LOG_VIEW}
      above={store && <PushQueuePanel storeId={store} />}
      actions={
        <Link className="button" to="/inventory/manual-sync-status">
          {t('nav.manual_sync')}
        </Link>
      }
      filters={
        <>
          <StoreFilter value={store} onChange={setStore} />
          <label htmlFor={fieldId} className="visually-hidden">
            {t('log.field_filter')}
          </label>
          <select
            id={fieldId}
            className="input"
            value={field}
            onChange={(event) => setField(event.target.value as PushLogRow['field'] | '')}
          >
            <option value="">{t('log.all_fields')}</option>
            {PUSH_FIELDS.map((value) => (
              <option key={value} value={value}>
                {t(`fields.${value}`)}
              </option>
            ))}
          </select>
          <label htmlFor={fromId}>{t('log.from')}</label>
          <input
            id={fromId}
            className="input"
            type="datetime-local"
            value={from}
            onChange={(event) => setFrom(event.target.value)}
          />
          <label htmlFor={toId}>{t('log.to')}</label>
          <input
            id={toId}
            className="input"
            type="datetime-local"
            value={to}
            onChange={(event) => setTo(event.target.value)}
          />
          <CheckboxField
            label={t('log.failed_only')}
            checked={failedOnly}
            onChange={(event) => setFailedOnly(event.target.checked)}
          />
          <CheckboxField
            label={t('log.waiting_only')}
            checked={waitingOnly}
            onChange={(event) => setWaitingOnly(event.target.checked)}
          />
        </>
      }
    />
  );
}
