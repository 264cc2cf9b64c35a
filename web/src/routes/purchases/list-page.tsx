import { PURCHASES_VIEW } from '@domain/shared/live-views';
import { withQuery } from '@web/api/client';
import {
  MANAGE_KEY,
  PURCHASE_STATUSES,
  PURCHASES_ENDPOINT,
  type PurchaseListRow,
  usePurchaseSettings,
  useSavePurchaseSettings,
} from '@web/api/purchases';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { StatusFilter } from '@web/components/status-filter';
import { messageOf } from '@web/shell/form';
import { useDate, useDateTime, useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PurchaseStatusBadge } from './parts';

/**
 * Purchases → list: every purchase order of the account, newest first, by status and search (PO number, reference,
 * supplier); a new order from here; the owner's approval settings above. It follows the live view `purchases`: an
 * order moving anywhere (placed, received through a note in another tab) refreshes the rows.
 */

function NumberCell({ data }: ICellRendererParams<PurchaseListRow>) {
  const { t } = useTranslation('purchases');
  if (!data) return null;
  return (
    <Link to={`/purchases/detail/${data.id}`} aria-label={t('list.open_named', { number: data.po_number })}>
      {data.po_number}
    </Link>
  );
}

function StatusCell({ data }: ICellRendererParams<PurchaseListRow>) {
  return data ? <PurchaseStatusBadge status={data.status} /> : null;
}

function useColumns(): ColDef<PurchaseListRow>[] {
  const { t, i18n } = useTranslation('purchases');
  const when = useDateTime();
  const day = useDate();
  const money = useMoney();
  return useMemo(() => {
    const number = new Intl.NumberFormat(i18n.language);
    return [
      {
        colId: 'po_number',
        headerName: t('list.columns.po_number'),
        cellRenderer: NumberCell,
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'date',
        field: 'date',
        headerName: t('list.columns.date'),
        valueFormatter: ({ value }) => day(value),
        sortable: true,
        minWidth: 110,
      },
      {
        colId: 'reference',
        field: 'reference',
        headerName: t('list.columns.reference'),
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'supplier_name',
        field: 'supplier_name',
        headerName: t('list.columns.supplier'),
        sortable: true,
        flex: 1,
        minWidth: 150,
      },
      {
        colId: 'warehouse_name',
        field: 'warehouse_name',
        headerName: t('list.columns.warehouse'),
        sortable: true,
        minWidth: 130,
      },
      {
        colId: 'status',
        headerName: t('list.columns.status'),
        cellRenderer: StatusCell,
        sortable: true,
        minWidth: 140,
      },
      {
        colId: 'received',
        headerName: t('list.columns.received'),
        valueGetter: ({ data }) =>
          data ? `${number.format(data.received)} / ${number.format(data.quantity)}` : '',
        sortable: true,
        type: 'rightAligned',
        minWidth: 110,
      },
      {
        colId: 'total',
        headerName: t('list.columns.total'),
        valueGetter: ({ data }) => money(data?.total),
        sortable: true,
        type: 'rightAligned',
        minWidth: 110,
      },
      {
        colId: 'estimated_arrival',
        field: 'estimated_arrival',
        headerName: t('list.columns.estimated_arrival'),
        valueFormatter: ({ value }) => day(value),
        sortable: true,
        minWidth: 120,
      },
      {
        colId: 'created_at',
        headerName: t('list.columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 150,
      },
    ] satisfies ColDef<PurchaseListRow>[];
  }, [t, i18n.language, when, day, money]);
}

/** The owner's switches: whether placing an order and receiving a note need an approval. */
function SettingsPanel() {
  const { t } = useTranslation('purchases');
  const notify = useNotify();
  const id = useId();
  const settings = usePurchaseSettings();
  const save = useSavePurchaseSettings();
  if (!settings.data) return null;
  const current = settings.data;
  async function toggle(name: 'purchase_approval' | 'goods_receipt_approval', value: boolean) {
    try {
      const answer = await save.mutateAsync({
        purchase_approval: current.purchase_approval,
        goods_receipt_approval: current.goods_receipt_approval,
        [name]: value,
      });
      notify({ kind: 'success', message: answer.msg });
    } catch (error) {
      notify({ kind: 'error', message: messageOf(error) });
    }
  }
  return (
    <section className="card purchase-section" aria-labelledby={id}>
      <h2 id={id}>{t('settings.title')}</h2>
      <div className="purchase-settings">
        <label className="check-label">
          <input
            type="checkbox"
            checked={current.purchase_approval}
            disabled={save.isPending}
            onChange={(event) => toggle('purchase_approval', event.target.checked)}
          />
          {t('settings.purchase_approval')}
        </label>
        <label className="check-label">
          <input
            type="checkbox"
            checked={current.goods_receipt_approval}
            disabled={save.isPending}
            onChange={(event) => toggle('goods_receipt_approval', event.target.checked)}
          />
          {t('settings.goods_receipt_approval')}
        </label>
      </div>
    </section>
  );
}

export default function PurchaseListPage() {
  const { t } = useTranslation('purchases');
  const { can, isOwner } = useSession();
  const [status, setStatus] = useState('');
  return (
    <GridScreen<PurchaseListRow>
      namespace="purchases"
      prefix="list"
      gridId="purchases.list"
      endpoint={withQuery(PURCHASES_ENDPOINT, { status: status || undefined })}
      useColumns={useColumns}
      className="purchase-page"
      live={PURCHASES_VIEW}
      actions={
        can(MANAGE_KEY) && (
          <Link className="button button-primary" to="/purchases/add">
            {t('list.add')}
          </Link>
        )
      }
      above={isOwner && <SettingsPanel />}
      filters={
        <StatusFilter
          label={t('list.status_filter')}
          allLabel={t('list.all_statuses')}
          className="purchase-filter"
          value={status}
          onChange={setStatus}
          options={PURCHASE_STATUSES.map((value) => ({
            value,
            label: t(`status.${value.replace(' ', '_')}`),
          }))}
        />
      }
    />
  );
}
