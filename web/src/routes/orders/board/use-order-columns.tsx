import type { OrderRow } from '@web/api/orders';
import { dateTimeFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { paymentKey } from './order-words';

/** The board's columns: what spec §3 "Order" lists, with the problem flags of spec §4 as badges. */

const when = (value: string | null | undefined, language: string) => dateTimeFormatter(language)(value);

export function Flags({
  row,
}: {
  row: Pick<OrderRow, 'item_not_found' | 'out_of_stock' | 'pre_order' | 'on_hold'> &
    Partial<Pick<OrderRow, 'process_failure' | 'replacement_of'>> & { preview?: boolean };
}) {
  const { t } = useTranslation('orders');
  return (
    <span className="order-flags">
      {row.on_hold && <span className="badge badge-danger">{t('flags.on_hold')}</span>}
      {row.item_not_found && <span className="badge badge-warning">{t('flags.item_not_found')}</span>}
      {row.out_of_stock && <span className="badge badge-danger">{t('flags.out_of_stock')}</span>}
      {row.pre_order && <span className="badge badge-muted">{t('flags.pre_order')}</span>}
      {row.preview && <span className="badge badge-muted">{t('flags.preview')}</span>}
      {row.process_failure && (
        <span className="badge badge-danger" title={row.process_failure.reason}>
          {t('flags.process_failed')}
        </span>
      )}
      {row.replacement_of && <span className="badge badge-muted">{t('flags.replacement')}</span>}
    </span>
  );
}

export function useOrderColumns(onOpen: (row: OrderRow) => void): ColDef<OrderRow>[] {
  const { t, i18n } = useTranslation('orders');
  const language = i18n.language;
  return useMemo<ColDef<OrderRow>[]>(
    () => [
      {
        colId: 'order_number',
        headerName: t('columns.order_number'),
        field: 'order_number',
        sortable: true,
        pinned: 'left',
        minWidth: 170,
        cellRenderer: (params: ICellRendererParams<OrderRow>) =>
          params.data ? (
            <button type="button" className="button-link" onClick={() => onOpen(params.data!)}>
              {params.data.order_number}
            </button>
          ) : null,
      },
      {
        colId: 'status',
        headerName: t('columns.status'),
        sortable: true,
        valueGetter: (params) => (params.data ? t(`statuses.${params.data.status}`) : ''),
      },
      {
        colId: 'flags',
        headerName: t('columns.flags'),
        minWidth: 160,
        cellRenderer: (params: ICellRendererParams<OrderRow>) =>
          params.data ? <Flags row={params.data} /> : null,
      },
      {
        colId: 'store',
        headerName: t('columns.store'),
        valueGetter: (params) => params.data && (params.data.store_name ?? params.data.store_id),
      },
      {
        colId: 'platform',
        headerName: t('columns.platform'),
        valueGetter: (params) =>
          params.data ? t(`platforms.${params.data.platform}`, params.data.platform) : '',
      },
      {
        colId: 'payment',
        headerName: t('columns.payment'),
        valueGetter: (params) => (params.data ? t(paymentKey(params.data)) : ''),
      },
      {
        colId: 'paid_at',
        headerName: t('columns.paid_at'),
        sortable: true,
        valueGetter: (params) => when(params.data?.paid_at, language),
      },
      {
        colId: 'ordered_at',
        headerName: t('columns.ordered_at'),
        sortable: true,
        valueGetter: (params) => when(params.data?.ordered_at, language),
      },
      {
        colId: 'tracking_number',
        headerName: t('columns.tracking_number'),
        field: 'tracking_number',
        sortable: true,
      },
      { colId: 'shipping_provider', headerName: t('columns.shipping_provider'), field: 'shipping_provider' },
      { colId: 'buyer_name', headerName: t('columns.buyer'), field: 'buyer_name', sortable: true },
      {
        colId: 'total_amount',
        headerName: t('columns.total'),
        sortable: true,
        type: 'rightAligned',
        valueGetter: (params) => params.data && `${params.data.currency} ${params.data.total_amount}`,
      },
      {
        colId: 'item_count',
        headerName: t('columns.items'),
        field: 'item_count',
        sortable: true,
        type: 'rightAligned',
        maxWidth: 110,
      },
      {
        colId: 'marketplace_status',
        headerName: t('columns.marketplace_status'),
        valueGetter: (params) =>
          params.data
            ? t(`marketplace_statuses.${params.data.marketplace_status}`, params.data.marketplace_status)
            : '',
      },
      {
        colId: 'printed',
        headerName: t('columns.printed'),
        valueGetter: (params) => params.data?.printed.join(', '),
      },
      {
        colId: 'scanned_at',
        headerName: t('columns.scanned'),
        sortable: true,
        valueGetter: (params) =>
          params.data?.scanned_at
            ? `${when(params.data.scanned_at, language)}${params.data.scanned_by?.name ? ` · ${params.data.scanned_by.name}` : ''}`
            : '',
      },
    ],
    [t, language, onOpen],
  );
}
