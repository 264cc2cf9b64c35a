import { RETURNS_ENDPOINT, RETURNS_VIEW, type ReturnRow } from '@web/api/returns';
import { GridScreen } from '@web/components/grid-screen';
import { useDateTime, useMoney } from '@web/shell/format';
import { useNotify } from '@web/shell/notifications';
import type { ColDef } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ReturnForm } from './return-form';
import '../print/printing.css';

/**
 * Orders → Return reconciliation (spec §2 "return", /orders/return-reconciliation): the returns of the account,
 * newest first — order, tracking number, return to stock or write off, the refund, how much came back and how much
 * went back into stock, who recorded it — and a new return. Follows the live view `orderReturns`.
 */

function useColumns(): ColDef<ReturnRow>[] {
  const { t } = useTranslation('returns');
  const when = useDateTime();
  const money = useMoney();
  return useMemo(() => {
    return [
      {
        colId: 'created_at',
        headerName: t('list.columns.created_at'),
        valueGetter: ({ data }) => when(data?.created_at),
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'order_number',
        headerName: t('list.columns.order_number'),
        valueGetter: ({ data }) => data?.order_number ?? '',
        sortable: true,
        minWidth: 150,
      },
      {
        colId: 'tracking_number',
        headerName: t('list.columns.tracking_number'),
        valueGetter: ({ data }) => data?.tracking_number ?? '',
        minWidth: 140,
      },
      {
        colId: 'action',
        headerName: t('list.columns.action'),
        valueGetter: ({ data }) => (data ? t(`actions.${data.action}`) : ''),
        minWidth: 130,
      },
      {
        colId: 'total_quantity',
        headerName: t('list.columns.quantity'),
        valueGetter: ({ data }) => (data ? `${data.total_quantity} / ${data.restocked_quantity}` : ''),
        headerTooltip: t('list.columns.quantity_hint'),
        sortable: true,
        type: 'rightAligned',
        minWidth: 120,
      },
      {
        colId: 'refund_to_buyer',
        headerName: t('list.columns.refund_to_buyer'),
        valueGetter: ({ data }) =>
          data
            ? `${data.currency} ${money(data.refund_to_buyer)}${data.include_shipping ? ` ${t('list.with_shipping')}` : ''}`
            : '',
        sortable: true,
        minWidth: 160,
      },
      {
        colId: 'refund_reason',
        headerName: t('list.columns.refund_reason'),
        valueGetter: ({ data }) => data?.refund_reason ?? '',
        flex: 1,
        minWidth: 160,
      },
      {
        colId: 'created_by',
        headerName: t('list.columns.created_by'),
        valueGetter: ({ data }) => data?.created_by?.name ?? '',
        minWidth: 130,
      },
    ] satisfies ColDef<ReturnRow>[];
  }, [t, when, money]);
}

export default function ReturnsPage() {
  const notify = useNotify();
  return (
    <GridScreen<ReturnRow>
      namespace="returns"
      prefix="list"
      gridId="orders.returns"
      endpoint={RETURNS_ENDPOINT}
      useColumns={useColumns}
      live={RETURNS_VIEW}
      form={({ onClose, onSaved }) => (
        <ReturnForm
          onClose={onClose}
          onSaved={(message) => {
            onSaved();
            notify({ kind: 'success', message });
          }}
        />
      )}
    />
  );
}
