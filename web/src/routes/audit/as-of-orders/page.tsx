import { AS_OF_ORDERS_ENDPOINT, type AsOfOrderRow, asOfEndpoint, exportAsOfOrders } from '@web/api/audit';
import { useSession } from '@web/auth/session';
import { GridScreen } from '@web/components/grid-screen';
import { dateTimeFormatter, moneyFormatter } from '@web/shell/format';
import type { ColDef, ICellRendererParams } from 'ag-grid-community';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { ExportButtons } from '../../inventory/stock-common/export-buttons';
import { AsOfPicker, useAsOf } from '../as-of-picker';
import '../audit.css';

/**
 * Reports → open orders as of a date: the orders imported by the chosen instant and neither shipped nor cancelled
 * then, with their status then and now; exported as CSV or XLSX (streamed). Each row links to the order's replay.
 */

function ReplayCell({ data }: ICellRendererParams<AsOfOrderRow>) {
  const { t } = useTranslation('audit');
  if (!data) return null;
  return <Link to={`/audit/order/${encodeURIComponent(data.id)}`}>{t('replay.open')}</Link>;
}

function useColumns(): ColDef<AsOfOrderRow>[] {
  const { t, i18n } = useTranslation('audit');
  return useMemo(() => {
    const when = dateTimeFormatter(i18n.language);
    const money = moneyFormatter(i18n.language);
    const status = (value: string | undefined) => (value ? t(`order_status.${value}`) : '');
    return [
      {
        colId: 'order_number',
        field: 'order_number',
        headerName: t('as_of.columns.order_number'),
        sortable: true,
        pinned: 'left',
        minWidth: 150,
      },
      { colId: 'platform', field: 'platform', headerName: t('as_of.columns.platform'), minWidth: 90 },
      {
        colId: 'status',
        headerName: t('as_of.columns.status'),
        valueGetter: ({ data }) => status(data?.status),
        sortable: true,
        minWidth: 110,
      },
      {
        colId: 'status_now',
        headerName: t('as_of.columns.status_now'),
        valueGetter: ({ data }) => status(data?.status_now),
        minWidth: 110,
      },
      {
        colId: 'ordered_at',
        headerName: t('as_of.columns.ordered_at'),
        valueGetter: ({ data }) => when(data?.ordered_at),
        sortable: true,
        minWidth: 140,
      },
      {
        colId: 'total_amount',
        headerName: t('as_of.columns.total_amount'),
        valueGetter: ({ data }) => (data ? `${data.currency} ${money(data.total_amount)}` : ''),
        sortable: true,
        type: 'rightAligned',
        minWidth: 110,
      },
      {
        colId: 'item_count',
        field: 'item_count',
        headerName: t('as_of.columns.item_count'),
        type: 'rightAligned',
        minWidth: 70,
      },
      { colId: 'replay', headerName: '', cellRenderer: ReplayCell, minWidth: 90 },
    ] satisfies ColDef<AsOfOrderRow>[];
  }, [t, i18n.language]);
}

export default function AsOfOrdersPage() {
  const { t, i18n } = useTranslation('audit');
  const { can, hasModule } = useSession();
  const at = useAsOf();
  const filters = { at };
  const columns = useColumns();
  const when = dateTimeFormatter(i18n.language, { seconds: true });
  return (
    <GridScreen<AsOfOrderRow>
      namespace="audit"
      prefix="as_of_orders"
      gridId="audit.as-of-orders"
      endpoint={asOfEndpoint(AS_OF_ORDERS_ENDPOINT, filters)}
      useColumns={() => columns}
      actions={
        can('inventory-list-export') &&
        hasModule('downloadModule') && (
          <ExportButtons download={(format) => exportAsOfOrders(format, filters)} />
        )
      }
      above={
        <>
          <AsOfPicker />
          <p className="muted">{t('as_of.showing', { at: when(at) })}</p>
        </>
      }
    />
  );
}
